package engine

import (
	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
)

// node is a vertex of a plan or apply graph. The walk dispatches on the
// concrete type.
type node interface {
	String() string
}

// Nodes for what a module declares (variables, locals, outputs, resources,
// module calls) are static: each is walked once and works on every
// instance of its module, known by then.

// varNode finalizes an input variable in every instance of its module:
// conversion, defaults and validation rules. The root module's values come
// from the user, a child's from its module block.
type varNode struct {
	path addrs.Module
	cfg  *configs.Variable
	// call is the module block setting a child module's variables.
	call *configs.ModuleCall
}

// localNode evaluates a local value.
type localNode struct {
	path addrs.Module
	cfg  *configs.Local
}

// outputNode evaluates an output value: a root module output is planned
// and stored, a child module's is what module.NAME.OUTPUT refers to.
type outputNode struct {
	path addrs.Module
	cfg  *configs.Output
}

// moduleNode expands a module call (count, for_each) in every instance of
// the calling module. Everything inside the module waits for it.
type moduleNode struct {
	path addrs.Module // the called module's path
	call *configs.ModuleCall
}

// checkNode evaluates a check block's assertions (warnings only).
type checkNode struct {
	path addrs.Module
	cfg  *configs.Check
}

// providerNode configures a provider configuration before its resources
// are used.
type providerNode struct {
	addr addrs.AbsProviderConfig
	cfg  *configs.Provider // nil when there is no provider block
}

// resourceNode plans or applies every instance of a resource in the
// configuration.
type resourceNode struct {
	addr     addrs.ConfigResource
	cfg      *configs.Resource
	provider addrs.AbsProviderConfig
	// providerKey, when provider uses for_each, selects the instance of
	// each resource instance.
	providerKey *providerKeyExpr
	// dependsOn holds, for a data resource, the managed resources its
	// depends_on (and its modules' depends_on) name, directly or through
	// other objects, and those its arguments refer to directly: pending
	// changes to any of them defer the read to apply.
	dependsOn []addrs.ConfigResource
	// forcedCBD is set on a managed resource that a resource with
	// create_before_destroy depends on: it is replaced
	// create-before-destroy too.
	forcedCBD bool
}

// createBeforeDestroy reports whether the resource's objects are replaced
// create-before-destroy: declared so, or forced by a dependent that is.
func (n *resourceNode) createBeforeDestroy() bool {
	return n.cfg.Managed != nil && (n.cfg.Managed.CreateBeforeDestroy || n.forcedCBD)
}

// orphanNode plans the deletion of a resource that is in the state but not
// in the configuration (or of everything in destroy mode).
type orphanNode struct {
	addr addrs.AbsResource
}

// destroyNode applies the deletion of one object: an instance that is
// removed or replaced, or a deposed object.
type destroyNode struct {
	addr    addrs.AbsResourceInstance
	deposed string
}

func (n *varNode) String() string      { return inModule(n.path, "var."+n.cfg.Name) }
func (n *localNode) String() string    { return inModule(n.path, "local."+n.cfg.Name) }
func (n *outputNode) String() string   { return inModule(n.path, "output."+n.cfg.Name) }
func (n *moduleNode) String() string   { return n.path.String() + " (expand)" }
func (n *providerNode) String() string { return n.addr.String() }
func (n *resourceNode) String() string { return n.addr.String() }
func (n *orphanNode) String() string   { return n.addr.String() + " (orphan)" }
func (n *destroyNode) String() string {
	if n.deposed != "" {
		return n.addr.String() + " (destroy deposed " + n.deposed + ")"
	}
	return n.addr.String() + " (destroy)"
}

func inModule(p addrs.Module, name string) string {
	if p.IsRoot() {
		return name
	}
	return p.String() + "." + name
}
