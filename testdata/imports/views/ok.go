package views

import (
	_ "oware/engine"
	_ "oware/play"
)
