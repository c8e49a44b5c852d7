moved {
from = a.b
to = a.c
}
import {
  to = a.d
  id = "x"
}
