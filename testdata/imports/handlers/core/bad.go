package core

import (
	_ "oware/handlers/web"
)
