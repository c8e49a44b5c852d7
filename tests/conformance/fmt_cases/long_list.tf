a = [
"one",
    "two",
        "three"
]
