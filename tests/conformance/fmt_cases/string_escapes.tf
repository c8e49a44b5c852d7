a = "line\nbreak \"q\" $${lit} %%{lit}"
