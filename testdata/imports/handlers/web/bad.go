package web

import (
	_ "oware/game"
	_ "oware/handlers/api"
)
