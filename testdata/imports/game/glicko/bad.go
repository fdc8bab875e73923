package glicko

import _ "oware/views"
