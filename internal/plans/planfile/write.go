package planfile

import (
	"time"

	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// Contents is everything a plan file holds.
type Contents struct {
	Plan *plans.Plan
	// Config maps configuration file names (relative to the working
	// directory) to their source.
	Config map[string][]byte
	// LockFile is the dependency lock file, or nil.
	LockFile []byte
	// StrataVersion is the version that made the plan; only the same
	// version may apply it.
	StrataVersion string
}

// Write encodes c as a plan file.
func Write(c *Contents) ([]byte, error) {
	entries := map[string][]byte{}
	pj, err := encodePlan(c.Plan)
	if err != nil {
		return nil, err
	}
	if entries[planEntry], err = json.MarshalIndent(pj, "", "  "); err != nil {
		return nil, err
	}
	if entries[priorEntry], err = statefile.Write(c.Plan.PriorState); err != nil {
		return nil, fmt.Errorf("encoding prior state: %w", err)
	}
	if entries[prevRunEntry], err = statefile.Write(c.Plan.PrevRunState); err != nil {
		return nil, fmt.Errorf("encoding previous run state: %w", err)
	}
	if c.LockFile != nil {
		entries[lockEntry] = c.LockFile
	}
	for name, src := range c.Config {
		entries[configPrefix+name] = src
	}

	manifest := manifestJSON{Format: "strata-plan", FormatVersion: FormatVersion, StrataVersion: c.StrataVersion, Checksums: map[string]string{}}
	names := make([]string, 0, len(entries))
	for name, data := range entries {
		sum := sha256.Sum256(data)
		manifest.Checksums[name] = hex.EncodeToString(sum[:])
		names = append(names, name)
	}
	sort.Strings(names)
	mdata, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return nil, err
	}

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range append([]string{manifestEntry}, names...) {
		data := entries[name]
		if name == manifestEntry {
			data = mdata
		}
		w, err := zw.Create(name)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func encodePlan(p *plans.Plan) (*planJSON, error) {
	pj := &planJSON{
		Mode:             modeNames[p.Mode],
		Errored:          p.Errored,
		ObjectsReencoded: p.ObjectsReencoded,
		Variables:        map[string]valueJSON{},
		Resources:        []resourceChangeJSON{},
		Outputs:          []outputChangeJSON{},
	}
	for name, v := range p.VariableValues {
		if slices.Contains(p.ApplyTimeVariables, name) {
			continue // ephemeral: set again when the plan is applied
		}
		vj, err := encodeValue(v)
		if err != nil {
			return nil, fmt.Errorf("variable %q: %w", name, err)
		}
		pj.Variables[name] = vj
	}
	pj.ApplyTimeVariables = p.ApplyTimeVariables
	pj.DefaultedVariables = p.DefaultedVariables
	var err error
	if pj.Resources, err = encodeResourceChanges(p.Changes.Resources); err != nil {
		return nil, err
	}
	if pj.Drift, err = encodeResourceChanges(p.DriftedResources); err != nil {
		return nil, err
	}
	pj.Checks = encodeChecks(p.Checks)
	if relevant := p.Relevant(); len(relevant) > 0 {
		paths := make([]cty.Path, len(relevant))
		for i, ra := range relevant {
			pj.Relevant = append(pj.Relevant, ra.Resource)
			paths[i] = ra.Attr
		}
		if pj.RelevantPaths, err = statefile.MarshalPaths(paths); err != nil {
			return nil, fmt.Errorf("relevant attributes: %w", err)
		}
	}
	for _, o := range p.Changes.Outputs {
		before, err := encodeValue(nullIfNil(o.Before))
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", o.Name, err)
		}
		after, err := encodeValue(nullIfNil(o.After))
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", o.Name, err)
		}
		pj.Outputs = append(pj.Outputs, outputChangeJSON{Name: o.Name, Action: actionName(o.Action), Before: before, After: after, Sensitive: o.Sensitive})
	}
	pj.Options.SkipRefresh = p.SkipRefresh
	if !p.Timestamp.IsZero() {
		pj.Timestamp = p.Timestamp.UTC().Format(time.RFC3339)
	}
	for _, t := range p.Targets {
		pj.Options.Targets = append(pj.Options.Targets, t.String())
	}
	for _, t := range p.Excludes {
		pj.Options.Excludes = append(pj.Options.Excludes, t.String())
	}
	for _, t := range p.ForceReplace {
		pj.Options.Replace = append(pj.Options.Replace, t.String())
	}
	return pj, nil
}

// encodeResourceChanges encodes resource instance changes.
func encodeResourceChanges(changes []*plans.ResourceInstanceChange) ([]resourceChangeJSON, error) {
	out := []resourceChangeJSON{}
	for _, c := range changes {
		before, err := encodeValue(c.Before)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Addr, err)
		}
		after, err := encodeValue(c.After)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Addr, err)
		}
		rc := resourceChangeJSON{
			Addr: c.Addr.String(), Deposed: c.DeposedKey, Provider: c.ProviderAddr.String(),
			Action: actionName(c.Action), Reason: int(c.Reason), Before: before, After: after,
			Private: c.Private, SchemaVersion: c.SchemaVersion, IdentityVersion: c.IdentityVersion,
		}
		if len(c.RequiredReplace) > 0 {
			if rc.RequiredReplace, err = statefile.MarshalPaths(c.RequiredReplace); err != nil {
				return nil, err
			}
		}
		if c.PrevRunAddr != nil {
			rc.PrevAddr = c.PrevRunAddr.String()
		}
		if c.Importing != nil {
			rc.ImportID, rc.GeneratedConfig = c.Importing.ID, c.Importing.GeneratedConfig
			if rc.ImportIdentity, err = encodeIdentity(c.Importing.Identity); err != nil {
				return nil, fmt.Errorf("%s: %w", c.Addr, err)
			}
		}
		if rc.BeforeIdentity, err = encodeIdentity(c.BeforeIdentity); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Addr, err)
		}
		if rc.AfterIdentity, err = encodeIdentity(c.AfterIdentity); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Addr, err)
		}
		out = append(out, rc)
	}
	return out, nil
}

// encodeIdentity encodes an identity value, nil for none (cty.NilVal).
func encodeIdentity(v cty.Value) (*valueJSON, error) {
	if v == cty.NilVal {
		return nil, nil
	}
	j, err := encodeValue(v)
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	return &j, nil
}

func nullIfNil(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return v
}
