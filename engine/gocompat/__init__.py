"""What Terraform's output inherits from Go's standard library, written once.

The bottom floor of the engine: it imports nothing from the rest of `engine`, so any package
(and the Python providers) can use it. Each module mirrors one Go facility:

- `strconv`: `strconv.Quote` / `QuoteRune` (what `%q` prints).
- `duration`: `time.ParseDuration` and `Duration.String`.
- `json`: `encoding/json`'s output (string escaping, `MarshalIndent`'s layout) as one
  parameterised writer, and `json_syntax`: its scanner's error messages and offsets.
- `bcrypt`: `golang.org/x/crypto/bcrypt`'s `GenerateFromPassword`.
- `levenshtein`: the edit distance behind HCL's and Terraform's "Did you mean ...?".
"""
