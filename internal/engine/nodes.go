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

// varNode finalizes a root module input variable: conversion, defaults and
// validation rules.
type varNode struct{ cfg *configs.Variable }

// localNode evaluates a local value.
type localNode struct{ cfg *configs.Local }

// outputNode evaluates a root module output value.
type outputNode struct{ cfg *configs.Output }

// providerNode configures a provider configuration before its resources
// are used.
type providerNode struct {
	addr addrs.AbsProviderConfig
	cfg  *configs.Provider // nil when there is no provider block
}

// resourceNode plans or applies every instance of a resource in the
// configuration.
type resourceNode struct {
	addr     addrs.AbsResource
	cfg      *configs.Resource
	provider addrs.AbsProviderConfig
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

func (n *varNode) String() string      { return "var." + n.cfg.Name }
func (n *localNode) String() string    { return "local." + n.cfg.Name }
func (n *outputNode) String() string   { return "output." + n.cfg.Name }
func (n *providerNode) String() string { return n.addr.String() }
func (n *resourceNode) String() string { return n.addr.String() }
func (n *orphanNode) String() string   { return n.addr.String() + " (orphan)" }
func (n *destroyNode) String() string {
	if n.deposed != "" {
		return n.addr.String() + " (destroy deposed " + n.deposed + ")"
	}
	return n.addr.String() + " (destroy)"
}
