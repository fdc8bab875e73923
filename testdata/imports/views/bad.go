package views

import _ "oware/game"
