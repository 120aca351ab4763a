package contract

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
)

// Rule names one invariant of the provider contract.
type Rule string

// The rules strata checks.
const (
	// PlanValid: the planned state keeps every configured value (or the
	// prior one), sets only computed attributes left null, and keeps the
	// configured nested blocks.
	PlanValid Rule = "plan_valid"
	// ApplyResultConsistent: the new state keeps every value the final
	// plan knew.
	ApplyResultConsistent Rule = "apply_result_consistent"
	// ReadAfterApply: reading the object right after apply returns the
	// object apply returned (the values are canonical, so the next plan
	// shows no drift).
	ReadAfterApply Rule = "read_after_apply"
	// IdentityStable: the resource identity (Terraform 1.12) of an
	// existing object stays the same when it is read, planned or
	// updated. Terraform itself does not check this; providers built on
	// terraform-plugin-framework do, unless the resource declares its
	// identity mutable.
	IdentityStable Rule = "identity_stable"
)

// Description says what the rule requires, in a phrase.
func (r Rule) Description() string {
	switch r {
	case PlanValid:
		return "the planned value must keep the configured value"
	case ApplyResultConsistent:
		return "the new state must keep every value the final plan knew"
	case ReadAfterApply:
		return "reading the object after apply must return the applied object"
	case IdentityStable:
		return "an existing object's identity must not change"
	default:
		panic(fmt.Sprintf("contract: unknown rule %q", string(r)))
	}
}

// Violation is one broken invariant at one attribute path of one
// resource instance object. Detail holds the two values; a value that is
// sensitive (in the schema or by its configuration) is never in it.
type Violation struct {
	// Provider is the provider's source address.
	Provider string `json:"provider"`
	// Address is the resource instance's address; Type its resource type.
	Address string `json:"address"`
	Type    string `json:"resource_type"`
	Rule    Rule   `json:"rule"`
	// Path is the attribute path, as ".name" or ".rule[0].port"; empty
	// for the whole object.
	Path string `json:"path"`
	// Detail says what differs, with both values or "(sensitive value)".
	Detail string `json:"detail"`
	// Legacy is true when the provider declared the legacy type system,
	// the reason the violation is tolerated outside strict mode.
	Legacy bool `json:"legacy"`
}

// String renders the violation on one line.
func (v Violation) String() string {
	path := v.Path
	if path == "" {
		path = "(object)"
	}
	return fmt.Sprintf("%s: %s (%s)", path, v.Detail, v.Rule.Description())
}

// Report collects violations from concurrent operations. The zero value
// is ready to use; a nil *Report ignores what it is given.
type Report struct {
	mu   sync.Mutex
	list []Violation
	seen map[Violation]bool
}

// Add records violations, once each.
func (r *Report) Add(vs ...Violation) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[Violation]bool{}
	}
	for _, v := range vs {
		if !r.seen[v] {
			r.seen[v] = true
			r.list = append(r.list, v)
		}
	}
}

// Violations returns what was recorded, ordered by provider, address,
// rule and path.
func (r *Report) Violations() []Violation {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	out := append([]Violation(nil), r.list...)
	r.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Provider != b.Provider {
			return a.Provider < b.Provider
		}
		if a.Address != b.Address {
			return a.Address < b.Address
		}
		if a.Rule != b.Rule {
			return ruleOrder(a.Rule) < ruleOrder(b.Rule)
		}
		return a.Path < b.Path
	})
	return out
}

func ruleOrder(r Rule) int {
	switch r {
	case PlanValid:
		return 0
	case ApplyResultConsistent:
		return 2
	case ReadAfterApply:
		return 3
	default:
		return 4
	}
}

// Take returns Violations and empties the report.
func (r *Report) Take() []Violation {
	vs := r.Violations()
	if r != nil {
		r.mu.Lock()
		r.list, r.seen = nil, nil
		r.mu.Unlock()
	}
	return vs
}

// Group is the violations of one resource instance.
type Group struct {
	Provider, Address string
	Violations        []Violation
}

// Groups returns the violations grouped by provider and resource
// instance, in the order of Violations.
func Groups(vs []Violation) []Group {
	var out []Group
	for _, v := range vs {
		if n := len(out); n > 0 && out[n-1].Provider == v.Provider && out[n-1].Address == v.Address {
			out[n-1].Violations = append(out[n-1].Violations, v)
			continue
		}
		out = append(out, Group{Provider: v.Provider, Address: v.Address, Violations: []Violation{v}})
	}
	return out
}

// Summary renders the violations as the detail of one warning: a line per
// resource instance ("PROVIDER: N tolerated contract violations in
// ADDR:") followed by an indented line per violation, at most max
// violation lines in all (0 for no limit), then a line counting the rest.
func Summary(vs []Violation, max int) string {
	var b strings.Builder
	shown := 0
	for i, g := range Groups(vs) {
		if max > 0 && shown >= max {
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		noun := "violations"
		if len(g.Violations) == 1 {
			noun = "violation"
		}
		fmt.Fprintf(&b, "%s: %d tolerated contract %s in %s:\n", shortProvider(g.Provider), len(g.Violations), noun, g.Address)
		for _, v := range g.Violations {
			if max > 0 && shown >= max {
				break
			}
			fmt.Fprintf(&b, "  - %s\n", v.String())
			shown++
		}
	}
	if rest := len(vs) - shown; rest > 0 {
		fmt.Fprintf(&b, "\n... and %d more; the -json output lists them all.\n", rest)
	}
	return b.String()
}

// shortProvider drops the default registry host, as Terraform's messages
// do ("hashicorp/null").
func shortProvider(p string) string {
	return strings.TrimPrefix(p, "registry.terraform.io/")
}

// VerifyReadsFromEnv reports whether STRATA_VERIFY_READ asks for the
// verification read after apply outside strict mode.
func VerifyReadsFromEnv(getenv func(string) string) bool {
	return envTrue(getenv, "STRATA_VERIFY_READ")
}

// StrictFromEnv reports whether STRATA_STRICT asks for strict mode: any
// value but "", "0" and "false".
func StrictFromEnv(getenv func(string) string) bool {
	return envTrue(getenv, "STRATA_STRICT")
}

func envTrue(getenv func(string) string, name string) bool {
	if getenv == nil {
		getenv = os.Getenv
	}
	switch strings.ToLower(strings.TrimSpace(getenv(name))) {
	case "", "0", "false":
		return false
	}
	return true
}
