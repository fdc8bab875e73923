package web

import (
	_ "oware/handlers/core"
	_ "oware/views"
)
