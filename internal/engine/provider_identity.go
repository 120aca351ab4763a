package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// IdentityArguments are the provider configuration arguments that decide
// where a provider's objects live, for every provider: an object created
// with region = "us-east-1" stays there when the configuration says
// "eu-west-1", and Terraform plans no change for it. Arguments named
// like an endpoint (endpoint, endpoints, ..._endpoint, ..._url, host,
// address) count too: see identityArgument.
var IdentityArguments = []string{
	"region", "location", "zone", "project", "account_id", "subscription_id",
	"tenant_id", "organization", "namespace", "cluster", "host", "address",
	"endpoint", "endpoints", "base_url",
}

// identityArgument reports whether a top-level provider argument decides
// where objects live.
func identityArgument(name string) bool {
	for _, n := range IdentityArguments {
		if name == n {
			return true
		}
	}
	return strings.HasSuffix(name, "_endpoint") || strings.HasSuffix(name, "_url")
}

// providerRecord computes the record of a provider configuration's value
// (evaluated, marks and all): the hash of its non-sensitive top-level
// arguments and the values of the identity arguments set. ok is false
// when a non-sensitive argument is not yet known.
func providerRecord(addr string, schema *configschema.Block, v cty.Value) (rec states.ProviderConfigRecord, ok bool) {
	rec.Provider = addr
	if schema == nil || v == cty.NilVal || v.IsNull() || !v.Type().IsObjectType() {
		rec.Hash = "sha256:" + hex.EncodeToString(sha256.New().Sum(nil))
		return rec, true
	}
	names := make([]string, 0, len(schema.Attributes))
	for name := range schema.Attributes {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		a := schema.Attributes[name]
		if a.Sensitive || !v.Type().HasAttribute(name) {
			continue
		}
		av := v.GetAttr(name)
		if av.ContainsMarked() {
			continue // sensitive by the configuration
		}
		if !av.IsWhollyKnown() {
			return rec, false
		}
		if av.IsNull() {
			continue
		}
		js, err := ctyjson.Marshal(av, av.Type())
		if err != nil {
			return rec, false
		}
		fmt.Fprintf(h, "%s=%s\n", name, js)
		if identityArgument(name) {
			if rec.Identity == nil {
				rec.Identity = map[string]string{}
			}
			rec.Identity[name] = string(js)
		}
	}
	rec.Hash = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return rec, true
}

// setProviderRecord remembers the record of a configured provider
// instance.
func (w *walker) setProviderRecord(addr string, rec states.ProviderConfigRecord, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.providerRecords == nil {
		w.providerRecords = map[string]states.ProviderConfigRecord{}
	}
	if ok {
		w.providerRecords[addr] = rec
	} else {
		delete(w.providerRecords, addr)
	}
}

// providerRecordFor returns the record of a provider instance configured
// in this walk, if its configuration was wholly known.
func (w *walker) providerRecordFor(addr string) (states.ProviderConfigRecord, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	rec, ok := w.providerRecords[addr]
	return rec, ok
}

// shortHash shortens a record's hash for messages.
func shortHash(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		h = h[:12]
	}
	return h
}

// providerRecordOf returns the provider record the state holds for an
// instance's current object.
func (w *walker) providerRecordOf(addr addrs.AbsResourceInstance) (states.ProviderConfigRecord, bool) {
	return w.state.ProviderRecord(addr)
}

// recordProviderConfigs updates the provider records of a state after an
// apply: each object the plan covered (any action, no-ops included) or
// that has no record yet gets the record of its provider configuration
// as configured in this walk, when that configuration sets identity
// arguments; records of objects no longer in the state go.
func (w *walker) recordProviderConfigs(s *states.State, plan *plans.Plan) {
	covered := map[string]bool{}
	for _, c := range plan.Changes.Resources {
		if c.DeposedKey == "" {
			covered[c.Addr.String()] = true
		}
	}
	live := map[string]bool{}
	for _, r := range s.SortedResources() {
		if r.Addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		for key, inst := range r.Instances {
			if inst.Current == nil {
				continue
			}
			addr := r.Addr.Instance(key).String()
			live[addr] = true
			if _, has := s.ProviderConfigs[addr]; has && !covered[addr] {
				continue
			}
			rec, ok := w.providerRecordFor(r.InstanceProvider(key).String())
			switch {
			case !ok:
			case len(rec.Identity) == 0 && !w.replacesOnProviderChange(r.Addr):
				// Only configurations with identity arguments are
				// recorded: a state of providers without any (null,
				// random, local...) stays byte for byte Terraform's.
				delete(s.ProviderConfigs, addr)
			default:
				if s.ProviderConfigs == nil {
					s.ProviderConfigs = map[string]states.ProviderConfigRecord{}
				}
				s.ProviderConfigs[addr] = rec
			}
		}
	}
	for addr := range s.ProviderConfigs {
		if !live[addr] {
			delete(s.ProviderConfigs, addr)
		}
	}
	if len(s.ProviderConfigs) == 0 {
		s.ProviderConfigs = nil
	}
}

// replacesOnProviderChange reports whether a resource's configuration
// sets lifecycle replace_on_provider_change.
func (w *walker) replacesOnProviderChange(addr addrs.AbsResource) bool {
	c := w.e.Config.Descendant(addr.Module.Module())
	if c == nil || addr.Resource.Mode != addrs.ManagedResourceMode {
		return false
	}
	r := c.Module.ManagedResources[addr.Resource.String()]
	return r != nil && r.Managed != nil && r.Managed.ReplaceOnProviderChange
}

// identityChanges lists the identity arguments whose value differs
// between the record an object was applied with and the current one,
// as `region "us-east-1" → "eu-west-1"`; none when either is missing.
func identityChanges(old, cur states.ProviderConfigRecord) []string {
	keys := map[string]bool{}
	for k := range old.Identity {
		keys[k] = true
	}
	for k := range cur.Identity {
		keys[k] = true
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []string
	for _, k := range names {
		a, b := old.Identity[k], cur.Identity[k]
		if a == b {
			continue
		}
		if a == "" {
			a = "(unset)"
		}
		if b == "" {
			b = "(unset)"
		}
		out = append(out, fmt.Sprintf("%s %s → %s", k, a, b))
	}
	return out
}

// providerChangeDiag is the error (or, acknowledged, the warning) that
// lists the instances whose provider configuration's identity changed.
func providerChangeDiag(changes []*plans.ResourceInstanceChange, allowed bool) *hcl.Diagnostic {
	var b strings.Builder
	var replaces []string
	for _, c := range changes {
		fmt.Fprintf(&b, "  - %s: provider configuration changed: %s\n", c.Addr, strings.Join(c.ProviderConfigChanged, ", "))
		replaces = append(replaces, "-replace="+c.Addr.String())
	}
	if allowed {
		return &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Provider configuration changed under existing objects",
			Detail: "These objects were applied with another value of arguments that decide where a provider's objects live. -allow-provider-change accepts that: they stay where they are, and strata records the new configuration for them.\n\n" +
				b.String(),
		}
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Provider configuration changed under existing objects",
		Detail: "These objects were applied with another value of arguments that decide where a provider's objects live. The provider will keep managing them where they are (Terraform would say nothing), which is rarely what a change of these arguments means:\n\n" +
			b.String() +
			"\nTo recreate them with the new configuration, plan again with " + strings.Join(replaces, " ") + ". To keep them where they are and record the new configuration, plan again with -allow-provider-change.",
	}
}
