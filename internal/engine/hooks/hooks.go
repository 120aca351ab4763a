// Package hooks defines the callbacks the engine makes while it plans and
// applies, so that views can report progress without the engine knowing
// about them. It imports addrs and plans only.
package hooks

import (
	"strconv"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
)

// Hook receives progress events. Implementations must be safe for
// concurrent use; the engine calls them from many goroutines.
type Hook interface {
	// PreRefresh is called before reading a resource instance's current
	// object (deposed "") or one of its deposed objects; id is its "id"
	// attribute when it has one.
	PreRefresh(addr addrs.AbsResourceInstance, deposed string, id string)
	// PostRefresh is called after reading it.
	PostRefresh(addr addrs.AbsResourceInstance, deposed string, id string)
	// PreApply is called before applying a change to an instance's
	// current object (deposed "") or one of its deposed objects.
	PreApply(addr addrs.AbsResourceInstance, deposed string, action plans.Action, id string)
	// PostApply is called after applying a change, with the new state's
	// id and any error.
	PostApply(addr addrs.AbsResourceInstance, deposed string, action plans.Action, id string, elapsed time.Duration, err error)
	// Stopping is called once when the user interrupts the run.
	Stopping()
	// PlanImport is called before an import block's object is read
	// during plan; PreImport and PostImport around recording it at apply.
	PlanImport(addr addrs.AbsResourceInstance, id string)
	PreImport(addr addrs.AbsResourceInstance, id string)
	PostImport(addr addrs.AbsResourceInstance, id string)
	// PreProvision is called before a provisioner of type typeName runs
	// for an instance's object, PostProvision after it, with its error,
	// and ProvisionOutput with each line it prints in between.
	PreProvision(addr addrs.AbsResourceInstance, typeName string)
	ProvisionOutput(addr addrs.AbsResourceInstance, typeName, line string)
	PostProvision(addr addrs.AbsResourceInstance, typeName string, err error)
}

// Nil is a Hook that ignores every event; embed it to implement only some.
type Nil struct{}

// PreRefresh implements Hook.
func (Nil) PreRefresh(addrs.AbsResourceInstance, string, string) {}

// PostRefresh implements Hook.
func (Nil) PostRefresh(addrs.AbsResourceInstance, string, string) {}

// PreApply implements Hook.
func (Nil) PreApply(addrs.AbsResourceInstance, string, plans.Action, string) {}

// PostApply implements Hook.
func (Nil) PostApply(addrs.AbsResourceInstance, string, plans.Action, string, time.Duration, error) {}

// Stopping implements Hook.
func (Nil) Stopping() {}

// PlanImport implements Hook.
func (Nil) PlanImport(addrs.AbsResourceInstance, string) {}

// PreImport implements Hook.
func (Nil) PreImport(addrs.AbsResourceInstance, string) {}

// PostImport implements Hook.
func (Nil) PostImport(addrs.AbsResourceInstance, string) {}

// PreProvision implements Hook.
func (Nil) PreProvision(addrs.AbsResourceInstance, string) {}

// ProvisionOutput implements Hook.
func (Nil) ProvisionOutput(addrs.AbsResourceInstance, string, string) {}

// PostProvision implements Hook.
func (Nil) PostProvision(addrs.AbsResourceInstance, string, error) {}

var _ Hook = Nil{}

// IDOf returns the "id" attribute of an object value when it is a known
// string, or "".
func IDOf(v cty.Value) string {
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return ""
	}
	id, _ := v.GetAttr("id").Unmark()
	if id.IsNull() || !id.IsKnown() || id.Type() != cty.String {
		return ""
	}
	return id.AsString()
}

// IdentityImportHook is implemented by hooks that report an import block
// that names its object by resource identity (Terraform 1.12) rather
// than by ID; identity is the identity's name=value pairs.
type IdentityImportHook interface {
	PlanImportIdentity(addr addrs.AbsResourceInstance, identity string)
}

// SkipCause says why the apply did not make a planned change.
type SkipCause uint8

const (
	// SkipDependencyFailed: something the change depends on, directly or
	// transitively, failed.
	SkipDependencyFailed SkipCause = iota + 1
	// SkipInterrupted: the run was interrupted before the change could
	// start.
	SkipInterrupted
)

// String returns "dependency failed" or "interrupted".
func (c SkipCause) String() string {
	switch c {
	case SkipDependencyFailed:
		return "dependency failed"
	case SkipInterrupted:
		return "interrupted"
	}
	return "SkipCause(" + strconv.Itoa(int(c)) + ")"
}

// SkipHook is implemented by hooks that want to know which planned
// changes the apply did not make, and why. It is optional: the engine
// calls it on the hooks that have it, once per change it skips (the
// current object, deposed "", or a deposed object), possibly while other
// changes are still being applied.
type SkipHook interface {
	SkippedApply(addr addrs.AbsResourceInstance, deposed string, action plans.Action, cause SkipCause)
}
