package planfile

import (
	"time"

	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// Read decodes a plan file, verifying its format version and every
// entry's checksum. It refuses a plan made by a different strata version
// unless strataVersion is "".
func Read(data []byte, strataVersion string) (*Contents, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("the file is not a strata plan file, or it is truncated or damaged: %w", err)
	}
	entries := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("the plan file is damaged: %w", err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, 1<<30))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("the plan file is damaged: %s: %w", f.Name, err)
		}
		entries[f.Name] = b
	}
	var manifest manifestJSON
	if err := json.Unmarshal(entries[manifestEntry], &manifest); err != nil || manifest.Format != "strata-plan" {
		return nil, fmt.Errorf("the file is not a strata plan file: it has no valid manifest")
	}
	if manifest.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("the plan file uses format version %d; this strata reads version %d", manifest.FormatVersion, FormatVersion)
	}
	if strataVersion != "" && manifest.StrataVersion != strataVersion {
		return nil, fmt.Errorf("the plan was made by strata %s, but this is strata %s; a saved plan can only be applied by the version that made it. Plan again with this version", manifest.StrataVersion, strataVersion)
	}
	for name, data := range entries {
		if name == manifestEntry {
			continue
		}
		want, ok := manifest.Checksums[name]
		sum := sha256.Sum256(data)
		if !ok || hex.EncodeToString(sum[:]) != want {
			return nil, fmt.Errorf("the plan file has been altered: the checksum of %s does not match", name)
		}
	}
	for name := range manifest.Checksums {
		if _, ok := entries[name]; !ok {
			return nil, fmt.Errorf("the plan file is incomplete: %s is missing", name)
		}
	}

	c := &Contents{StrataVersion: manifest.StrataVersion, Config: map[string][]byte{}, LockFile: entries[lockEntry]}
	for name, data := range entries {
		if strings.HasPrefix(name, configPrefix) {
			c.Config[strings.TrimPrefix(name, configPrefix)] = data
		}
	}
	var pj planJSON
	if err := json.Unmarshal(entries[planEntry], &pj); err != nil {
		return nil, fmt.Errorf("the plan file's changes are unreadable: %w", err)
	}
	p, err := decodePlan(&pj)
	if err != nil {
		return nil, fmt.Errorf("the plan file's changes are invalid: %w", err)
	}
	if p.PriorState, err = statefile.Read(entries[priorEntry]); err != nil {
		return nil, fmt.Errorf("the plan file's prior state is invalid: %w", err)
	}
	if p.PrevRunState, err = statefile.Read(entries[prevRunEntry]); err != nil {
		return nil, fmt.Errorf("the plan file's previous run state is invalid: %w", err)
	}
	c.Plan = p
	return c, nil
}

func decodePlan(pj *planJSON) (*plans.Plan, error) {
	mode, err := parseMode(pj.Mode)
	if err != nil {
		return nil, err
	}
	p := &plans.Plan{Mode: mode, Errored: pj.Errored, ObjectsReencoded: pj.ObjectsReencoded, Changes: &plans.Changes{}, SkipRefresh: pj.Options.SkipRefresh, VariableValues: map[string]cty.Value{}}
	for name, vj := range pj.Variables {
		v, err := decodeValue(vj)
		if err != nil {
			return nil, fmt.Errorf("variable %q: %w", name, err)
		}
		p.VariableValues[name] = v
	}
	p.ApplyTimeVariables = pj.ApplyTimeVariables
	p.DefaultedVariables = pj.DefaultedVariables
	if len(pj.Relevant) > 0 {
		paths, err := statefile.UnmarshalPaths(pj.RelevantPaths)
		if err != nil || len(paths) != len(pj.Relevant) {
			return nil, fmt.Errorf("invalid relevant attributes")
		}
		for i, r := range pj.Relevant {
			p.RelevantAttributes = append(p.RelevantAttributes, plans.RelevantAttr{Resource: r, Attr: paths[i]})
		}
	}
	if pj.Timestamp != "" {
		if p.Timestamp, err = time.Parse(time.RFC3339, pj.Timestamp); err != nil {
			return nil, fmt.Errorf("invalid timestamp %q", pj.Timestamp)
		}
	}
	var err2 error
	if p.Changes.Resources, err2 = decodeResourceChanges(pj.Resources); err2 != nil {
		return nil, err2
	}
	if p.DriftedResources, err2 = decodeResourceChanges(pj.Drift); err2 != nil {
		return nil, err2
	}
	if p.Checks, err2 = decodeChecks(pj.Checks); err2 != nil {
		return nil, err2
	}
	for _, list := range []struct {
		in  []string
		out *[]addrs.Target
	}{{pj.Options.Targets, &p.Targets}, {pj.Options.Excludes, &p.Excludes}, {pj.Options.Replace, &p.ForceReplace}} {
		for _, s := range list.in {
			t, diags := addrs.ParseTarget(s)
			if diags.HasErrors() {
				return nil, fmt.Errorf("invalid target %q", s)
			}
			*list.out = append(*list.out, t)
		}
	}
	for _, oc := range pj.Outputs {
		action, err := parseAction(oc.Action)
		if err != nil {
			return nil, err
		}
		o := &plans.OutputChange{Name: oc.Name, Action: action, Sensitive: oc.Sensitive}
		if o.Before, err = decodeValue(oc.Before); err != nil {
			return nil, fmt.Errorf("output %q: %w", oc.Name, err)
		}
		if o.After, err = decodeValue(oc.After); err != nil {
			return nil, fmt.Errorf("output %q: %w", oc.Name, err)
		}
		p.Changes.Outputs = append(p.Changes.Outputs, o)
	}
	return p, nil
}

// decodeIdentity decodes what encodeIdentity wrote: cty.NilVal for none.
func decodeIdentity(j *valueJSON) (cty.Value, error) {
	if j == nil {
		return cty.NilVal, nil
	}
	v, err := decodeValue(*j)
	if err != nil {
		return cty.NilVal, fmt.Errorf("identity: %w", err)
	}
	return v, nil
}

// decodeResourceChanges decodes what encodeResourceChanges wrote.
func decodeResourceChanges(in []resourceChangeJSON) ([]*plans.ResourceInstanceChange, error) {
	var out []*plans.ResourceInstanceChange
	for _, rc := range in {
		addr, diags := addrs.ParseAbsResourceInstanceStr(rc.Addr)
		if diags.HasErrors() {
			return nil, fmt.Errorf("invalid address %q", rc.Addr)
		}
		provider, err := addrs.ParseAbsProviderConfig(rc.Provider)
		if err != nil {
			return nil, err
		}
		action, err := parseAction(rc.Action)
		if err != nil {
			return nil, err
		}
		c := &plans.ResourceInstanceChange{
			Addr: addr, DeposedKey: rc.Deposed, ProviderAddr: provider, Action: action,
			Reason: plans.ActionReason(rc.Reason), Private: rc.Private, SchemaVersion: rc.SchemaVersion,
			IdentityVersion: rc.IdentityVersion,
		}
		if c.Before, err = decodeValue(rc.Before); err != nil {
			return nil, fmt.Errorf("%s: %w", rc.Addr, err)
		}
		if c.After, err = decodeValue(rc.After); err != nil {
			return nil, fmt.Errorf("%s: %w", rc.Addr, err)
		}
		if c.RequiredReplace, err = statefile.UnmarshalPaths(rc.RequiredReplace); err != nil {
			return nil, err
		}
		if rc.ImportID != "" || rc.ImportIdentity != nil {
			c.Importing = &plans.Importing{ID: rc.ImportID, GeneratedConfig: rc.GeneratedConfig}
			if c.Importing.Identity, err = decodeIdentity(rc.ImportIdentity); err != nil {
				return nil, fmt.Errorf("%s: %w", rc.Addr, err)
			}
		}
		if c.BeforeIdentity, err = decodeIdentity(rc.BeforeIdentity); err != nil {
			return nil, fmt.Errorf("%s: %w", rc.Addr, err)
		}
		if c.AfterIdentity, err = decodeIdentity(rc.AfterIdentity); err != nil {
			return nil, fmt.Errorf("%s: %w", rc.Addr, err)
		}
		if rc.PrevAddr != "" {
			prev, diags := addrs.ParseAbsResourceInstanceStr(rc.PrevAddr)
			if diags.HasErrors() {
				return nil, fmt.Errorf("invalid previous address %q", rc.PrevAddr)
			}
			c.PrevRunAddr = &prev
		}
		out = append(out, c)
	}
	return out, nil
}
