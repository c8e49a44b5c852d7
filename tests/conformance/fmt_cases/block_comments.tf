/* one */
/*
  multi
     line
*/
resource "a" "b" {
  /* inside */
  x = 1 /* trailing */
  y = /* mid */ 2
}
