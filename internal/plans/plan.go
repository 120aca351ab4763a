package plans

import (
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// Mode is the kind of plan the user asked for.
type Mode int

const (
	// NormalMode plans to make infrastructure match the configuration.
	NormalMode Mode = iota
	// DestroyMode plans to destroy everything in the state.
	DestroyMode
	// RefreshOnlyMode plans only to update the state from remote objects.
	RefreshOnlyMode
)

// Plan is the result of planning: the changes to make and the states they
// were planned from.
type Plan struct {
	Mode    Mode
	Changes *Changes
	// PrevRunState is the state as read, before upgrade and refresh.
	PrevRunState *states.State
	// PriorState is the upgraded and refreshed state the plan starts from;
	// apply begins with it.
	PriorState *states.State
	// VariableValues are the root module's input variable values, except
	// those of ApplyTimeVariables.
	VariableValues map[string]cty.Value
	// ApplyTimeVariables are the ephemeral root variables set during plan:
	// their values are not recorded, so applying the plan needs them again.
	ApplyTimeVariables []string
	// DefaultedVariables are the root variables no value was given for
	// when planning (their VariableValues are their defaults). As in
	// Terraform, applying the plan takes a value given for one of them
	// as a value for an undeclared variable.
	DefaultedVariables []string
	// Errored is true when planning stopped on an error; such a plan is
	// shown but must not be applied.
	Errored bool
	// SkipRefresh records that the plan was made with -refresh=false.
	SkipRefresh bool
	// Targets and ForceReplace record -target and -replace.
	Targets, ForceReplace []addrs.Target
	// Excludes records -exclude.
	Excludes []addrs.Target
	// DriftedResources are the changes refreshing found made outside
	// strata: Before is the previous run's object, After the refreshed one
	// (null when it was deleted).
	DriftedResources []*ResourceInstanceChange
	// ObjectsReencoded records that refreshing changed some managed
	// object in a way that shows in no drift: it read a value equal to
	// the stored one but not as a stored one is held once decoded (a
	// number the provider sent as a msgpack integer or float rather than
	// as decimal text, see engine's numbersAsDecoded), or other private
	// data, or the object now records other dependencies or another
	// create_before_destroy flag. Terraform compares the refreshed state
	// with the previous run's in memory, whole, so it counts such a
	// refresh-only plan as applyable although it changes no attribute;
	// strata does the same.
	ObjectsReencoded bool
	// Checks are the results of the conditions of every checkable object
	// (resources with conditions, outputs with preconditions, check
	// blocks, validated variables) as far as planning could decide them.
	Checks []*CheckResult
	// Timestamp is when planning started: the value of plantimestamp(),
	// the same again when the plan is applied.
	Timestamp time.Time
	// ModuleOutputs are the values child module outputs had when planned,
	// by ModuleOutputKey. Applying the plan keeps those that were wholly
	// known instead of evaluating them again, as Terraform does. They
	// live in memory only: a saved plan does not record them, so applying
	// a saved plan evaluates every output again (as Terraform's does).
	ModuleOutputs map[string]cty.Value
	// RelevantAttributes are the resource attributes the plan's changes
	// depend on, which the engine finds from the configuration's
	// references (see RelevantAttr), sorted by resource. Read them with
	// Relevant: the engine finds them only when asked.
	RelevantAttributes []RelevantAttr

	// relevant, when not nil, finds RelevantAttributes on first use.
	relevant func() []RelevantAttr
}

// DeferRelevantAttributes makes find the source of RelevantAttributes:
// Relevant calls it once, when they are first asked for. Finding them
// follows every changing resource's references through the whole
// configuration, which only a saved plan, a plan document and a plan
// view with drift to filter need (an apply of 10,000 new resources spent
// a tenth of its allocations on it).
func (p *Plan) DeferRelevantAttributes(find func() []RelevantAttr) {
	p.relevant = find
}

// Relevant returns RelevantAttributes, first finding them when the
// engine deferred that (DeferRelevantAttributes). Not safe for
// concurrent use on a plan whose attributes are still to be found.
func (p *Plan) Relevant() []RelevantAttr {
	if p.relevant != nil {
		p.RelevantAttributes, p.relevant = p.relevant(), nil
	}
	return p.RelevantAttributes
}

// ModuleOutputKey is the key of a child module output in ModuleOutputs.
func ModuleOutputKey(mi addrs.ModuleInstance, name string) string {
	return mi.String() + "\x00" + name
}

// Changes holds every resource instance and output change of a plan.
type Changes struct {
	Resources []*ResourceInstanceChange
	Outputs   []*OutputChange
}

// ResourceInstanceChange is the planned change of one resource instance
// object. Before and After conform to the resource type's schema and carry
// the "sensitive" mark on sensitive parts.
type ResourceInstanceChange struct {
	Addr addrs.AbsResourceInstance
	// Importing is set when the object is adopted by an import block;
	// it holds the import ID.
	Importing *Importing
	// PrevRunAddr is where the previous run recorded the object, when a
	// moved block (or an implied move) changed its address; nil otherwise.
	PrevRunAddr *addrs.AbsResourceInstance
	// DeposedKey is set when the change is to a deposed object.
	DeposedKey   string
	ProviderAddr addrs.AbsProviderConfig

	Action Action
	Reason ActionReason

	// Before is the prior state (null for create); After the planned new
	// state, possibly with unknowns (null for delete).
	Before, After cty.Value
	// RequiredReplace lists the paths that forced replacement.
	RequiredReplace []cty.Path
	// ProviderConfigChanged lists the identity arguments of the provider
	// configuration (region, project, endpoint...) that changed since the
	// object was last applied, as `region "a" → "b"`. strata's own; not
	// in plan files.
	ProviderConfigChanged []string
	// Private is the provider's planned private data.
	Private []byte
	// SchemaVersion of the resource type when the change was planned.
	SchemaVersion int64
	// BeforeIdentity and AfterIdentity are the resource identities
	// (Terraform 1.12) of the prior object and the planned one, cty.NilVal
	// when the resource type has none or the provider sent none. The
	// planned identity of a new object may be unknown.
	BeforeIdentity, AfterIdentity cty.Value
	// IdentityVersion is the version of the resource type's identity
	// schema when the change was planned.
	IdentityVersion int64
}

// Importing describes an import planned by an import block.
type Importing struct {
	// ID is the import ID, empty when the import block gave an identity.
	ID string
	// Identity is the resource identity the import block gave instead of
	// an ID, cty.NilVal otherwise.
	Identity cty.Value
	// GeneratedConfig is the resource block written for an object whose
	// import block had no configuration (plan -generate-config-out).
	GeneratedConfig string
}

// OutputChange is the planned change of a root module output.
type OutputChange struct {
	Name          string
	Action        Action
	Before, After cty.Value
	Sensitive     bool
}

// DropUnknownOutputs removes the output changes whose new value is not
// wholly known: what Terraform's refresh command, which records the
// refreshed state without applying anything, leaves out of the state.
func (c *Changes) DropUnknownOutputs() {
	kept := c.Outputs[:0]
	for _, o := range c.Outputs {
		if o.After == cty.NilVal || o.After.IsWhollyKnown() {
			kept = append(kept, o)
		}
	}
	c.Outputs = kept
}

// HasChanges reports whether applying the plan would change anything:
// any resource or output change other than NoOp.
func (c *Changes) HasChanges() bool {
	for _, r := range c.Resources {
		if r.Action != NoOp || r.PrevRunAddr != nil || r.Importing != nil {
			return true
		}
	}
	for _, o := range c.Outputs {
		if o.Action != NoOp {
			return true
		}
	}
	return false
}

// Resource returns the change for the current object of addr, or nil.
func (c *Changes) Resource(addr addrs.AbsResourceInstance) *ResourceInstanceChange {
	for _, r := range c.Resources {
		if r.DeposedKey == "" && r.Addr.String() == addr.String() {
			return r
		}
	}
	return nil
}

// Imports returns how many objects the plan imports.
func (c *Changes) Imports() int {
	n := 0
	for _, r := range c.Resources {
		if r.Importing != nil {
			n++
		}
	}
	return n
}

// Counts returns how many instances the plan adds, changes and destroys,
// counting a replacement as one add and one destroy, as the plan summary
// does.
func (c *Changes) Counts() (add, change, destroy int) {
	for _, r := range c.Resources {
		switch r.Action {
		case Create:
			add++
		case Update:
			change++
		case Delete:
			destroy++
		case DeleteThenCreate, CreateThenDelete:
			add++
			destroy++
		}
	}
	return add, change, destroy
}

// HasChanges reports whether applying the plan would change anything: a
// resource or output change, or, for a refresh-only plan, drift to record
// (objects changed or deleted, not only moved).
func (p *Plan) HasChanges() bool {
	return p.Changes.HasChanges() || (p.Mode == RefreshOnlyMode && (p.drifted() || p.ObjectsReencoded))
}

// drifted reports whether refreshing found objects changed or deleted:
// an object that was only moved does not count, as in Terraform, which
// shows such a move in a refresh-only plan but has nothing to apply for
// it.
func (p *Plan) drifted() bool {
	for _, c := range p.DriftedResources {
		if c.Action != NoOp {
			return true
		}
	}
	return false
}

// Applyable reports whether the plan may be applied, as Terraform decides
// it: not errored, and with changes; in refresh-only mode, with changes to
// the state: objects changed or deleted (not only moved), objects
// Terraform would hold otherwise in memory (ObjectsReencoded), or root
// outputs with new known values (an output not known until apply changes
// nothing yet).
func (p *Plan) Applyable() bool {
	switch {
	case p.Errored:
		return false
	case p.Mode != RefreshOnlyMode:
		return p.Changes.HasChanges()
	case p.drifted(), p.ObjectsReencoded:
		return true
	}
	for _, o := range p.Changes.Outputs {
		if o.Action != NoOp && (o.After == cty.NilVal || o.After.IsWhollyKnown()) {
			return true
		}
	}
	return false
}
