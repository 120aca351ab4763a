package configs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
)

// versionConstraintOps are the operators of a version constraint, longest first
// so that ">=" is not read as ">".
var versionConstraintOps = []string{"!=", ">=", "<=", "~>", ">", "<", "="}

// versionOpRank orders constraints on the same version as Terraform writes them.
var versionOpRank = map[string]int{">": 0, ">=": 1, "": 2, "~>": 3, "<=": 4, "<": 5, "!=": 6}

// normalVersionConstraint is one constraint in Terraform's normalized form.
type normalVersionConstraint struct {
	op  string // "" for an exact version
	ver *version.Version
	// text is the version as written in the normalized form: three
	// components (more than two for "~>" only when given), with any
	// pre-release.
	text string
	segs int
}

func (c normalVersionConstraint) String() string {
	if c.op == "" {
		return c.text
	}
	return c.op + " " + c.text
}

// NormalizeVersionConstraints joins version constraint strings into the form
// Terraform records in the dependency lock file and prints: each
// constraint as "OP VERSION" with a full three-part version (a "~>"
// keeps the precision it was given, at least two parts; "=" is left
// out), duplicates removed, sorted by version and then operator.
// Terraform refuses a lock file whose constraints are not in this form.
func NormalizeVersionConstraints(parts []string) (string, error) {
	var all []normalVersionConstraint
	seen := map[string]bool{}
	for _, part := range parts {
		for _, raw := range strings.Split(part, ",") {
			raw = strings.TrimSpace(raw)
			if raw == "" {
				continue
			}
			c, err := parseNormalVersionConstraint(raw)
			if err != nil {
				return "", err
			}
			if s := c.String(); !seen[s] {
				seen[s] = true
				all = append(all, c)
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if cmp := a.ver.Compare(b.ver); cmp != 0 {
			return cmp < 0
		}
		if a.op != b.op {
			return versionOpRank[a.op] < versionOpRank[b.op]
		}
		return a.segs > b.segs
	})
	out := make([]string, len(all))
	for i, c := range all {
		out[i] = c.String()
	}
	return strings.Join(out, ", "), nil
}

func parseNormalVersionConstraint(raw string) (normalVersionConstraint, error) {
	op := ""
	rest := raw
	for _, o := range versionConstraintOps {
		if strings.HasPrefix(raw, o) {
			op, rest = o, strings.TrimSpace(raw[len(o):])
			break
		}
	}
	if op == "=" {
		op = ""
	}
	v, err := version.NewVersion(rest)
	if err != nil || strings.HasPrefix(rest, "v") {
		return normalVersionConstraint{}, fmt.Errorf("invalid version constraint %q", raw)
	}
	segs := strings.Count(strings.SplitN(strings.SplitN(rest, "-", 2)[0], "+", 2)[0], ".") + 1
	nums := v.Segments()
	keep := 3
	if op == "~>" {
		keep = max(segs, 2)
	}
	text := make([]string, 0, keep)
	for i := 0; i < keep; i++ {
		n := 0
		if i < len(nums) {
			n = nums[i]
		}
		text = append(text, fmt.Sprint(n))
	}
	t := strings.Join(text, ".")
	if pre := v.Prerelease(); pre != "" {
		t += "-" + pre
	}
	return normalVersionConstraint{op: op, ver: v, text: t, segs: keep}, nil
}
