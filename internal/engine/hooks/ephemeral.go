package hooks

import (
	"time"

	"github.com/strata-dev/strata/internal/addrs"
)

// EphemeralAction is what is done to an ephemeral resource instance.
type EphemeralAction string

// The ephemeral resource operations, named as Terraform's JSON stream
// names them.
const (
	EphemeralOpen  EphemeralAction = "open"
	EphemeralRenew EphemeralAction = "renew"
	EphemeralClose EphemeralAction = "close"
	// EphemeralDefer is reported (PreEphemeralOp only) for an instance not
	// opened during plan because its configuration is not known yet.
	EphemeralDefer EphemeralAction = "defer"
)

// EphemeralHook is implemented by hooks that report ephemeral resource
// operations. It is optional: the engine calls it on the hooks that have
// it.
type EphemeralHook interface {
	// PreEphemeralOp is called before an ephemeral resource instance is
	// opened, renewed or closed.
	PreEphemeralOp(addr addrs.AbsResourceInstance, action EphemeralAction)
	// PostEphemeralOp is called after it, with the operation's error.
	PostEphemeralOp(addr addrs.AbsResourceInstance, action EphemeralAction, elapsed time.Duration, err error)
}
