package backend

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/backend/http"
	"github.com/strata-dev/strata/internal/backend/inmem"
	"github.com/strata-dev/strata/internal/backend/local"
	"github.com/strata-dev/strata/internal/backend/pg"
	"github.com/strata-dev/strata/internal/backend/s3"
)

// registry is every backend type, in the order messages list them: one
// line per type.
var registry = []*Type{
	define(local.Info, local.New),
	define(pg.Info, pg.New),
	define(http.Info, http.New),
	define(s3.Info, s3.New),
	define(inmem.Info, inmem.New),
}

// DefaultType is the backend of a working directory without a backend
// block.
const DefaultType = "local"

// Type is a backend type of the registry.
type Type struct {
	backendbase.Info
	// New configures a backend of this type.
	New func(*backendbase.Settings) (Backend, hcl.Diagnostics)
	// readsState is whether its backends are StateReaders.
	readsState bool
}

// define makes the registry entry of the type info whose backends newFn
// configures.
func define[B Backend](info backendbase.Info, newFn func(*backendbase.Settings) (B, hcl.Diagnostics)) *Type {
	var zero B
	_, reads := any(zero).(StateReader)
	return &Type{
		Info: info,
		New: func(s *backendbase.Settings) (Backend, hcl.Diagnostics) {
			b, diags := newFn(s)
			if diags.HasErrors() {
				return nil, diags
			}
			return b, diags
		},
		readsState: reads,
	}
}

// Lookup returns the backend type named name.
func Lookup(name string) (*Type, bool) {
	for _, t := range registry {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// ReadsState reports whether terraform_remote_state can read the states
// of backends of this type.
func (t *Type) ReadsState() bool { return t.readsState }

// Unsupported is the error for a backend type strata lacks.
func Unsupported(typ string, rng *hcl.Range) *hcl.Diagnostic {
	var names, testing []string
	for _, t := range registry {
		if t.ForTesting {
			testing = append(testing, t.Name)
		} else {
			names = append(names, t.Name)
		}
	}
	list := strings.Join(names, ", ")
	if len(testing) > 0 {
		list += " (and " + strings.Join(testing, ", ") + ", for testing)"
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported backend type",
		Detail:   fmt.Sprintf("The backend %q is not supported by this version of strata. Supported backends: %s.", typ, list),
		Subject:  rng,
	}
}

// StateReaderNames lists the types terraform_remote_state reads, quoted,
// as a sentence does: "local", "pg" and "http".
func StateReaderNames() string {
	var names []string
	for _, t := range registry {
		if t.readsState {
			names = append(names, fmt.Sprintf("%q", t.Name))
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
