package statefile

import (
	"encoding/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// The JSON structures of state format version 4, in the field order
// Terraform writes them.

type stateV4 struct {
	Version          int                      `json:"version"`
	TerraformVersion string                   `json:"terraform_version"`
	Serial           uint64                   `json:"serial"`
	Lineage          string                   `json:"lineage"`
	Outputs          map[string]outputStateV4 `json:"outputs"`
	Resources        []resourceStateV4        `json:"resources"`
	CheckResults     json.RawMessage          `json:"check_results"`
	// Strata is strata's own part of the state, absent when empty.
	// Terraform ignores unknown top-level keys when it reads a state.
	Strata *strataV4 `json:"strata,omitempty"`
}

// strataV4 is the "strata" section of a state.
type strataV4 struct {
	// ProviderConfigs: see states.State.ProviderConfigs.
	ProviderConfigs map[string]states.ProviderConfigRecord `json:"provider_configs,omitempty"`
}

type outputStateV4 struct {
	Value     json.RawMessage `json:"value"`
	Type      json.RawMessage `json:"type"`
	Sensitive bool            `json:"sensitive,omitempty"`
}

type resourceStateV4 struct {
	Module string `json:"module,omitempty"`
	Mode   string `json:"mode"`
	Type   string `json:"type"`
	Name   string `json:"name"`
	Each   string `json:"each,omitempty"`
	// Provider is "" when the instances record theirs: OpenTofu writes
	// the provider of each instance, and none for the resource, when its
	// instances belong to a provider configuration with for_each.
	Provider  string             `json:"provider,omitempty"`
	Instances []instanceObjectV4 `json:"instances"`
}

type instanceObjectV4 struct {
	IndexKey json.RawMessage `json:"index_key,omitempty"`
	Status   string          `json:"status,omitempty"`
	Deposed  string          `json:"deposed,omitempty"`
	// Provider is OpenTofu's provider instance of this object, such as
	// provider["registry.opentofu.org/hashicorp/aws"].by_region["x"].
	Provider string `json:"provider,omitempty"`

	SchemaVersion       uint64            `json:"schema_version"`
	AttributesRaw       json.RawMessage   `json:"attributes,omitempty"`
	AttributesFlat      map[string]string `json:"attributes_flat,omitempty"`
	SensitiveAttributes json.RawMessage   `json:"sensitive_attributes,omitempty"`

	IdentitySchemaVersion *uint64         `json:"identity_schema_version,omitempty"`
	IdentityRaw           json.RawMessage `json:"identity,omitempty"`

	PrivateRaw []byte `json:"private,omitempty"`

	Dependencies        json.RawMessage `json:"dependencies,omitempty"`
	CreateBeforeDestroy bool            `json:"create_before_destroy,omitempty"`

	// parsedDeps holds Dependencies already resolved, when reading.
	parsedDeps []addrs.AbsResource
	// compacted: AttributesRaw and IdentityRaw are compacted already, in
	// memory of their own (readFast).
	compacted bool
}

type pathStepV4 struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}
