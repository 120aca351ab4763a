package planfile

import "encoding/json"

// FormatVersion is the version of the plan file layout. Readers refuse
// other versions.
const FormatVersion = 1

// Entry names inside the archive.
const (
	manifestEntry = "manifest.json"
	planEntry     = "plan.json"
	priorEntry    = "prior.tfstate"
	prevRunEntry  = "prev-run.tfstate"
	lockEntry     = ".terraform.lock.hcl"
	configPrefix  = "config/"
)

type manifestJSON struct {
	Format        string            `json:"format"`
	FormatVersion int               `json:"format_version"`
	StrataVersion string            `json:"strata_version"`
	Checksums     map[string]string `json:"sha256"`
}

type planJSON struct {
	Mode string `json:"mode"`
	// Errored marks a plan saved after planning failed: it shows what was
	// planned before the error and cannot be applied.
	Errored   bool                 `json:"errored,omitempty"`
	Variables map[string]valueJSON `json:"variables"`
	// ApplyTimeVariables names the ephemeral variables set during plan,
	// whose values are not stored.
	ApplyTimeVariables []string `json:"apply_time_variables,omitempty"`
	// DefaultedVariables names the variables no value was given for
	// when planning.
	DefaultedVariables []string             `json:"defaulted_variables,omitempty"`
	Resources          []resourceChangeJSON `json:"resource_changes"`
	Drift              []resourceChangeJSON `json:"resource_drift,omitempty"`
	// ObjectsReencoded is plans.Plan's.
	ObjectsReencoded bool               `json:"objects_reencoded,omitempty"`
	Outputs          []outputChangeJSON `json:"output_changes"`
	Options          optionsJSON        `json:"options"`
	Checks           []checkJSON        `json:"checks,omitempty"`
	// Timestamp is when planning started (RFC 3339), the value of
	// plantimestamp() when the plan is applied.
	Timestamp string `json:"timestamp,omitempty"`
	// Relevant are the plan's relevant attributes: the resource
	// addresses, and their paths in one list in the same order.
	Relevant      []string        `json:"relevant_resources,omitempty"`
	RelevantPaths json.RawMessage `json:"relevant_paths,omitempty"`
}

type optionsJSON struct {
	SkipRefresh bool     `json:"skip_refresh,omitempty"`
	Targets     []string `json:"targets,omitempty"`
	Excludes    []string `json:"excludes,omitempty"`
	Replace     []string `json:"replace,omitempty"`
}

// valueJSON is a cty value in msgpack (which keeps unknowns), its type,
// and the paths marked sensitive.
type valueJSON struct {
	Type      json.RawMessage `json:"type"`
	Msgpack   []byte          `json:"msgpack"`
	Sensitive json.RawMessage `json:"sensitive_paths,omitempty"`
}

type resourceChangeJSON struct {
	Addr            string          `json:"addr"`
	PrevAddr        string          `json:"prev_addr,omitempty"`
	ImportID        string          `json:"import_id,omitempty"`
	GeneratedConfig string          `json:"generated_config,omitempty"`
	Deposed         string          `json:"deposed,omitempty"`
	Provider        string          `json:"provider"`
	Action          string          `json:"action"`
	Reason          int             `json:"reason,omitempty"`
	Before          valueJSON       `json:"before"`
	After           valueJSON       `json:"after"`
	RequiredReplace json.RawMessage `json:"required_replace,omitempty"`
	Private         []byte          `json:"private,omitempty"`
	SchemaVersion   int64           `json:"schema_version"`
	// BeforeIdentity, AfterIdentity and ImportIdentity are resource
	// identities, absent when there is none.
	BeforeIdentity  *valueJSON `json:"before_identity,omitempty"`
	AfterIdentity   *valueJSON `json:"after_identity,omitempty"`
	ImportIdentity  *valueJSON `json:"import_identity,omitempty"`
	IdentityVersion int64      `json:"identity_schema_version,omitempty"`
}

type outputChangeJSON struct {
	Name      string    `json:"name"`
	Action    string    `json:"action"`
	Before    valueJSON `json:"before"`
	After     valueJSON `json:"after"`
	Sensitive bool      `json:"sensitive,omitempty"`
}
