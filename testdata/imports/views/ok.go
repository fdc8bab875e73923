package views

import _ "oware/engine"
