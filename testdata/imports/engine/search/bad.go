package search

import (
	_ "oware/engine"
	_ "oware/handlers"
)
