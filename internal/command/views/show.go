package views

import (
	"sort"
	"strings"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/command/views/render"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// Show is the view of `strata show`: a state or a saved plan as text, or
// the JSON documents (-json) that package jsonplan builds.
type Show interface {
	Diagnosticser
	// State shows a state's resources and outputs: "No state." when s
	// is nil (nothing is stored), a sentence saying so when it is empty.
	State(s *states.State, schema SchemaFunc)
	// Plan shows a saved plan as `strata plan` showed it.
	Plan(p *plans.Plan, schema SchemaFunc, relevant []plans.RelevantAttr)
	// Document prints a JSON plan or state document.
	Document(data []byte)
}

// NewShow returns show's view.
func NewShow(v *View) Show { return &ShowHuman{View: v} }

// ShowHuman is show's output: text, or with -json the document as it is.
type ShowHuman struct{ *View }

var _ Show = (*ShowHuman)(nil)

// State implements Show.
func (h *ShowHuman) State(s *states.State, schema SchemaFunc) {
	switch {
	case s == nil:
		h.Output("No state.\n")
		return
	case s.Empty():
		h.Output("The state file is empty. No resources are represented.\n")
		return
	}
	h.Output(FormatState(s, schema))
}

// Plan implements Show.
func (h *ShowHuman) Plan(p *plans.Plan, schema SchemaFunc, relevant []plans.RelevantAttr) {
	h.View.Plan(p, schema, relevant)
}

// Document implements Show.
func (h *ShowHuman) Document(data []byte) { h.Raw(string(data) + "\n") }

// FormatState renders every resource instance and the outputs of a state
// as `strata show` prints them; lookup gives the resource types' schemas.
func FormatState(s *states.State, lookup SchemaFunc) string {
	var b strings.Builder
	module := ""
	for i, r := range s.SortedResources() {
		if m := r.Addr.Module.String(); i > 0 && m != module {
			b.WriteString("\n") // as Terraform, a blank line between modules
		}
		module = r.Addr.Module.String()
		for _, k := range r.SortedKeys() {
			inst := r.Instances[k]
			addr := r.Addr.Instance(k)
			objs := []struct {
				deposed string
				obj     *states.ObjectSrc
			}{{"", inst.Current}}
			dks := make([]string, 0, len(inst.Deposed))
			for dk := range inst.Deposed {
				dks = append(dks, dk)
			}
			sort.Strings(dks)
			for _, dk := range dks {
				objs = append(objs, struct {
					deposed string
					obj     *states.ObjectSrc
				}{dk, inst.Deposed[dk]})
			}
			for _, o := range objs {
				if o.obj == nil {
					continue
				}
				schema := lookup(&plans.ResourceInstanceChange{Addr: addr, ProviderAddr: r.ProviderConfig})
				label := addr.String()
				if o.deposed != "" {
					label += ": (deposed object " + o.deposed + ")"
				}
				if schema == nil {
					b.WriteString("# " + label + ": (no schema available)\n\n")
					continue
				}
				val, err := ctyjson.Unmarshal(o.obj.AttrsJSON, schema.ImpliedType())
				if err != nil {
					b.WriteString("# " + label + ": (stored object does not match the schema)\n\n")
					continue
				}
				val = marks.Apply(val, o.obj.SensitivePaths)
				text := render.StateResource(label, val, schema)
				if o.obj.Status == states.ObjectTainted {
					text = strings.Replace(text, ":\n", ": (tainted)\n", 1)
				}
				b.WriteString(text)
				b.WriteString("\n")
			}
		}
	}
	// As Terraform: a blank line between resources, none after the last
	// one, and two before the outputs.
	text := strings.TrimSuffix(b.String(), "\n")
	b.Reset()
	b.WriteString(text)
	if len(s.Outputs) > 0 {
		b.WriteString("\n\nOutputs:\n\n")
		names := make([]string, 0, len(s.Outputs))
		for n := range s.Outputs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			o := s.Outputs[n]
			b.WriteString(render.StateOutput(n, o.Value, o.Sensitive) + "\n")
		}
	}
	return b.String()
}
