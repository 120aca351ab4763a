package provisioners

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
)

// Provisioner is one type of provisioner.
type Provisioner interface {
	// Schema is the schema of the provisioner's block, without the
	// meta-arguments and the connection block.
	Schema() *configschema.Block
	// Validate checks a configuration conforming to Schema, which may
	// hold unknown values, for what the schema cannot say. Its
	// diagnostics have no subject.
	Validate(cfg cty.Value) hcl.Diagnostics
	// Provision runs the provisioner. Its diagnostics have no subject.
	Provision(ctx context.Context, req Request) hcl.Diagnostics
}

// Request is what a provisioner runs with.
type Request struct {
	// Config conforms to the provisioner's schema, wholly known and
	// without marks.
	Config cty.Value
	// Connection conforms to ConnectionSchema, wholly known and without
	// marks, or is null when no connection block applies.
	Connection cty.Value
	// Output receives what the provisioner prints, a message at a time;
	// a message may span lines.
	Output func(string)
	// Sensitive is set when the configuration held sensitive or
	// ephemeral values: errors must not repeat the configuration's
	// strings or what the provisioner printed.
	Sensitive bool
	// WorkDir is the absolute working directory relative paths start
	// from (local-exec's command, file's source); empty means the
	// process's.
	WorkDir string
	// Environ is the environment local-exec commands inherit; nil means
	// the process's.
	Environ []string
}

// Error is the diagnostic for a provisioner of type typeName that failed
// with err, worded as Terraform words it.
func Error(typeName string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("%s provisioner error", typeName),
		Detail:   err.Error(),
	}}
}
