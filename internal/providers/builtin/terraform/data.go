package terraform

import (
	"bufio"
	"crypto/rand"
	"io"
	"sync"

	"github.com/hashicorp/go-uuid"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
)

// dataSchema is the schema of terraform_data. Like Terraform's, it carries
// no descriptions, so that schema documents match.
// dataType is the type of a terraform_data object, built once.
var dataType = sync.OnceValue(func() cty.Type { return dataSchema().ImpliedType() })

func dataSchema() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"input":            {Type: cty.DynamicPseudoType, Optional: true},
			"output":           {Type: cty.DynamicPseudoType, Computed: true},
			"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
			"id":               {Type: cty.String, Computed: true},
		},
	}
}

// planData plans terraform_data: a changed triggers_replace forces
// replacement; output follows input, unknown until apply when input changes.
func planData(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	var resp providers.PlanResourceChangeResponse
	if req.ProposedNewState.IsNull() {
		// Destroy.
		resp.PlannedState = req.ProposedNewState
		return resp
	}
	planned := dataAttrs(req.ProposedNewState)
	input := planned["input"]
	if req.PriorState.IsNull() {
		planned["id"] = cty.UnknownVal(cty.String)
		planned["output"] = outputFor(input)
		resp.PlannedState = cty.ObjectVal(planned)
		return resp
	}
	prior := dataAttrs(req.PriorState)
	if !prior["triggers_replace"].RawEquals(planned["triggers_replace"]) {
		resp.RequiresReplace = []cty.Path{cty.GetAttrPath("triggers_replace")}
	}
	if !prior["input"].RawEquals(input) {
		// Even a removed input makes output unknown, as in Terraform.
		planned["output"] = cty.UnknownVal(input.Type())
	}
	resp.PlannedState = cty.ObjectVal(planned)
	return resp
}

// outputFor is the planned output of a new object: unknown, or null when
// input is null.
func outputFor(input cty.Value) cty.Value {
	if input.IsNull() {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return cty.UnknownVal(input.Type())
}

// applyData applies a planned terraform_data: it chooses an id on create
// and copies input to output.
func applyData(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	var resp providers.ApplyResourceChangeResponse
	if req.PlannedState.IsNull() {
		resp.NewState = req.PlannedState
		return resp
	}
	state := dataAttrs(req.PlannedState)
	if !state["id"].IsKnown() {
		id, err := uuid.GenerateUUIDWithReader(idRandom)
		if err != nil {
			resp.Diagnostics = providers.ErrorDiag("Cannot generate id", err)
			return resp
		}
		state["id"] = cty.StringVal(id)
	}
	state["output"] = state["input"]
	resp.NewState = cty.ObjectVal(state)
	return resp
}

// dataAttrs returns the attributes of a terraform_data object by name,
// read one by one: AsValueMap sorts the names and walks them, which was a
// third of this provider's apply at 100,000 objects.
func dataAttrs(v cty.Value) map[string]cty.Value {
	m := make(map[string]cty.Value, 4)
	for _, name := range [...]string{"id", "input", "output", "triggers_replace"} {
		if v.Type().HasAttribute(name) {
			m[name] = v.GetAttr(name)
		}
	}
	return m
}

// idRandom is crypto/rand read a page at a time, for the ids of new
// objects: one system call per id was another third.
var idRandom io.Reader = &lockedReader{r: bufio.NewReaderSize(rand.Reader, 4096)}

// lockedReader serializes reads of r, for the concurrent applies.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}
