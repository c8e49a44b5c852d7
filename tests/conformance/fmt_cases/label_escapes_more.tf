resource "" "b" {}
resource "a\nb" "\t" {}
resource "\u00e9" "\\" {}
