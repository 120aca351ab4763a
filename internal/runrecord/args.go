package runrecord

import "strings"

// Redacted stands in for a flag value that is not stored.
const Redacted = "(redacted)"

// secretFlags take values that may be secrets: -var NAME=VALUE and
// -backend-config KEY=VALUE keep their name and lose their value.
var secretFlags = map[string]bool{"var": true, "backend-config": true}

// RedactArgs returns the command-line arguments with the values of -var
// and -backend-config replaced by Redacted (a -backend-config naming a
// file is kept).
func RedactArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := flagParts(a)
		if !secretFlags[name] {
			out = append(out, a)
			continue
		}
		if !hasValue {
			out = append(out, a)
			if i+1 < len(args) {
				i++
				out = append(out, redactAssignment(args[i]))
			}
			continue
		}
		out = append(out, a[:len(a)-len(value)]+redactAssignment(value))
	}
	return out
}

// flagParts splits -name=value or --name=value.
func flagParts(a string) (name, value string, hasValue bool) {
	if !strings.HasPrefix(a, "-") {
		return "", "", false
	}
	a = strings.TrimLeft(a, "-")
	name, value, hasValue = strings.Cut(a, "=")
	return name, value, hasValue
}

func redactAssignment(s string) string {
	k, _, ok := strings.Cut(s, "=")
	if !ok {
		return s // a file name
	}
	return k + "=" + Redacted
}
