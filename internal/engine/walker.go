package engine

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/states"
)

// walker holds what one plan or apply walk shares between its nodes.
type walker struct {
	e     *Engine
	ev    *evaluator
	ps    *providerSet
	state *states.SyncState
	// sem bounds concurrent provider operations to the parallelism.
	sem chan struct{}

	mu      sync.Mutex
	changes []*plans.ResourceInstanceChange
	outputs []*plans.OutputChange
	// configured records provider configurations (and instances of those
	// with for_each) that were configured.
	configured map[string]bool
	// providerRecords holds, by provider instance address, the record of
	// each provider configuration configured in the walk whose
	// configuration was wholly known (see providerRecord).
	providerRecords map[string]states.ProviderConfigRecord
	// providerKeys holds the instance keys of each provider configuration
	// with for_each (by AbsProviderConfig.String(), without key), once
	// its node has evaluated them.
	providerKeys map[string]map[addrs.InstanceKey]bool
	// checkFailed records the check blocks (by checkKey) whose nested
	// data source failed in this walk.
	checkFailed map[string]string
	// checks collects the results of every condition.
	checks checkRecorder
	// ephemeral holds the ephemeral resource instances opened in this
	// walk, closed when it ends.
	ephemeral ephemeralSet
	// destroying is set in the walks of a destroy: as in Terraform, the
	// input variables' validation rules are not checked there (a destroy
	// checks them in the normal plan it makes first).
	destroying bool
	// validating is set in the walk of validate: as in Terraform, every
	// reference to an input variable is unknown there, so that the
	// configuration is judged for all values; a variable's validation
	// rules alone see its own value.
	validating bool
	// recordedOutputs collects child module outputs as planned, in the
	// walk of Engine.Plan; plannedOutputs holds them, read-only, in the
	// walk applying that plan. See plans.Plan.ModuleOutputs.
	recordedOutputs   map[string]cty.Value
	recordedOutputsMu sync.Mutex
	plannedOutputs    map[string]cty.Value
	// types caches the implied type of each resource schema
	// (*configschema.Block -> cty.Type): the engine needs it several times
	// per instance, and building it allocates a new object type each time.
	types sync.Map
	// specs caches the decoder spec of each resource schema
	// (*configschema.Block -> hcldec.Spec), which evaluating an instance's
	// configuration needs.
	specs sync.Map
	// shapes caches the lang.BlockShape of each resource schema
	// (*configschema.Block -> *lang.BlockShape), which the bodies of its
	// resources share when prepared.
	shapes sync.Map
}

// impliedType returns schema's implied type, built once per walk.
func (w *walker) impliedType(schema *configschema.Block) cty.Type {
	if t, ok := w.types.Load(schema); ok {
		return t.(cty.Type)
	}
	t := schema.ImpliedType()
	w.types.Store(schema, t)
	return t
}

// decoderSpec returns schema's decoder spec, built once per walk.
func (w *walker) decoderSpec(schema *configschema.Block) hcldec.Spec {
	if s, ok := w.specs.Load(schema); ok {
		return s.(hcldec.Spec)
	}
	s := schema.DecoderSpec()
	w.specs.Store(schema, s)
	return s
}

// blockShape returns the shape of bodies decoded with schema, built once
// per walk.
func (w *walker) blockShape(schema *configschema.Block) *lang.BlockShape {
	if s, ok := w.shapes.Load(schema); ok {
		return s.(*lang.BlockShape)
	}
	s, _ := w.shapes.LoadOrStore(schema, lang.NewBlockShape(schema, w.decoderSpec(schema)))
	return s.(*lang.BlockShape)
}

// preparedBlock returns body prepared for evaluation with schema, once
// per engine.
func (w *walker) preparedBlock(body hcl.Body, schema *configschema.Block) *lang.PreparedBlock {
	if t := reflect.TypeOf(body); t == nil || t.Kind() != reflect.Pointer {
		// Only a pointer is sure to be a map key: hcl.MergeBodies
		// (generated configuration, overrides) returns a slice, and a
		// struct may hold one. Those are prepared each time.
		return w.blockShape(schema).Prepare(body)
	}
	k := preparedKey{body, schema}
	if p, ok := w.e.prepared.Load(k); ok {
		return p.(*lang.PreparedBlock)
	}
	p, _ := w.e.prepared.LoadOrStore(k, w.blockShape(schema).Prepare(body))
	return p.(*lang.PreparedBlock)
}

// newWalker prepares a walk over state; pure is true for plan and
// validate walks, false for apply.
func (e *Engine) newWalker(state *states.State, pure bool) *walker {
	w := &walker{
		e:          e,
		ev:         newEvaluator(e.Config, e.workspace(), e.WorkDir, e.cwd(), pure),
		ps:         e.newProviderSet(),
		state:      states.NewSync(state),
		sem:        make(chan struct{}, e.parallelism()),
		configured: map[string]bool{},
	}
	w.ev.providerFuncs = &providerFunctions{ps: w.ps}
	for key, v := range e.ModuleOverrides {
		if mi, ok := addrs.ParseModuleInstanceStr(key); ok && mi.String() != mi.Module().String() {
			if w.ev.overridden == nil {
				w.ev.overridden = map[string]instanceOverride{}
			}
			w.ev.overridden[mi.String()] = instanceOverride{mi: mi, outputs: v}
		}
	}
	return w
}

// acquire takes a provider-operation slot, or fails when ctx is done.
func (w *walker) acquire(ctx context.Context) error {
	select {
	case w.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *walker) release() { <-w.sem }

func (w *walker) hook(fn func(h hooks.Hook)) {
	for _, h := range w.e.Hooks {
		fn(h)
	}
}

func (w *walker) addChange(c *plans.ResourceInstanceChange) {
	w.mu.Lock()
	w.changes = append(w.changes, c)
	w.mu.Unlock()
}

// resourceSchema returns the schema and version of a resource type.
func (w *walker) resourceSchema(ctx context.Context, addr addrs.Resource, provider addrs.AbsProviderConfig) (*configschema.Block, int64, error) {
	s, err := w.ps.schema(ctx, provider)
	if err != nil {
		return nil, 0, err
	}
	types := s.ResourceTypes
	what := "resource type"
	switch addr.Mode {
	case addrs.DataResourceMode:
		types, what = s.DataSources, "data source"
	case addrs.EphemeralResourceMode:
		types, what = s.EphemeralResourceTypes, "ephemeral resource type"
	}
	rs, ok := types[addr.Type]
	if !ok || rs.Block == nil {
		return nil, 0, fmt.Errorf("the provider %s does not support %s %q", provider.Provider.ForDisplay(), what, addr.Type)
	}
	return rs.Block, rs.Version, nil
}

// evalVariable validates and records an input variable's value in every
// instance of its module: from inputs for the root module, from the
// module block's argument for a child.
func (w *walker) evalVariable(n *varNode, inputs map[string]InputValue) hcl.Diagnostics {
	if n.call == nil {
		in, given := inputs[n.cfg.Name]
		return w.finishVariable(n.cfg, addrs.RootModuleInstance, in.Value, given, in.Source, in.Via)
	}
	var diags hcl.Diagnostics
	for _, mi := range w.ev.moduleInstances(n.path) {
		attr, given := n.call.Inputs[n.cfg.Name]
		val, rng := cty.NilVal, hcl.Range{}
		if given {
			scope := w.ev.scope(mi.Parent()).WithKey(w.ev.instanceKeyData(mi))
			v, d := scope.EvalExpr(attr.Expr, cty.DynamicPseudoType)
			diags = append(diags, d...)
			if d.HasErrors() {
				w.ev.setVariable(mi, n.cfg.Name, cty.UnknownVal(n.cfg.Type))
				continue
			}
			val, rng = v, attr.Expr.Range()
		}
		diags = append(diags, w.finishVariable(n.cfg, mi, val, given, rng, "")...)
	}
	return diags
}

// finishVariable applies a variable's default, type conversion,
// nullability, sensitivity and validation rules to the given value and
// records the result for module instance mi. rng is where the value was
// set, if anywhere; via how, when not in a file (InputValue.Via).
func (w *walker) finishVariable(cfg *configs.Variable, mi addrs.ModuleInstance, given cty.Value, isGiven bool, rng hcl.Range, via string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	val := cty.NullVal(cfg.Type)
	// Values from files point at their source; others (-var, environment,
	// prompts) at the declaration.
	if rng.Filename == "" {
		rng = cfg.DeclRange
	}
	if isGiven {
		val = given
	}
	if val.IsNull() && cfg.Default != cty.NilVal && (!isGiven || !cfg.Nullable) {
		val = cfg.Default
	}
	if !isGiven && cfg.Required() {
		if mi.IsRoot() {
			diags = append(diags, missingVariable(cfg))
		} // a child's is reported when the configuration is loaded
		w.ev.setVariable(mi, cfg.Name, cty.UnknownVal(cfg.Type))
		return diags
	}
	if cfg.TypeDefaults != nil && !val.IsNull() {
		val = cfg.TypeDefaults.Apply(val)
	}
	conv, err := convert.Convert(val, cfg.Type)
	if err != nil {
		detail := fmt.Sprintf("The given value is not suitable for %s declared at %s: %s.", inModuleInstance(mi, "var."+cfg.Name), cfg.DeclRange, strings.TrimSuffix(err.Error(), "."))
		if via != "" && isGiven {
			detail = fmt.Sprintf("Unsuitable value for var.%s set using %s: %s.", cfg.Name, via, strings.TrimSuffix(err.Error(), "."))
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for input variable",
			Detail:   detail,
			Subject:  rng.Ptr(),
		})
		w.ev.setVariable(mi, cfg.Name, cty.UnknownVal(cfg.Type))
		return diags
	}
	if conv.IsNull() && !cfg.Nullable {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Required variable not set",
			Detail:   fmt.Sprintf("The given value is not suitable for %s defined at %s: required variable may not be set to null.", inModuleInstance(mi, "var."+cfg.Name), cfg.DeclRange),
			Subject:  rng.Ptr(),
		})
	}
	if cfg.Sensitive {
		conv = conv.Mark(marks.Sensitive)
	}
	conv, ediags := ephemeralVariable(cfg, conv, rng)
	diags = append(diags, ediags...)
	if len(cfg.Validations) > 0 && cfg.Sensitive {
		// As in Terraform, the validation rules see the value before it
		// is made sensitive: a failure shows it, and so may its message.
		plain, ms := conv.Unmark()
		delete(ms, marks.Sensitive)
		w.ev.setVariable(mi, cfg.Name, plain.WithMarks(ms))
	} else {
		w.ev.setVariable(mi, cfg.Name, conv)
	}
	for _, rule := range cfg.Validations {
		if w.destroying {
			break
		}
		d := w.rule(checkObject{kind: plans.CheckKindVariable, module: mi.Module(), name: cfg.Name}, mi, addrs.NoKey,
			w.ev.scope(mi), rule.Condition, rule.ErrorMessage, "Invalid value for variable",
			fmt.Sprintf("\n\nThis was checked by the validation rule at %s.", rule.DeclRange))
		// As in Terraform, a failed rule points at where the value was
		// set when that is in a file (the argument of the module block
		// that set a child's value, so that the caller sees which call is
		// wrong, or the line of a variables file), and otherwise at the
		// variable's declaration.
		for _, diag := range d {
			if diag.Summary == "Invalid value for variable" {
				diag.Subject = rng.Ptr()
			}
		}
		diags = append(diags, d...)
	}
	if w.validating {
		conv = unknownVariable(cfg)
	}
	w.ev.setVariable(mi, cfg.Name, conv)
	return diags
}

// unknownVariable is the value a reference to a variable has in validate:
// unknown, of its type, with its sensitivity and ephemerality.
func unknownVariable(cfg *configs.Variable) cty.Value {
	v := cty.UnknownVal(cfg.Type)
	if cfg.Sensitive {
		v = v.Mark(marks.Sensitive)
	}
	if cfg.Ephemeral {
		v = v.Mark(marks.Ephemeral)
	}
	return v
}

// missingVariable reports a required root module variable with no value.
func missingVariable(cfg *configs.Variable) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "No value for required variable",
		Detail:   fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", cfg.Name),
		Subject:  cfg.DeclRange.Ptr(),
	}
}

func inModuleInstance(mi addrs.ModuleInstance, name string) string {
	if mi.IsRoot() {
		return name
	}
	return mi.String() + "." + name
}

// checkRuleIn evaluates a condition in scope and, when it is false,
// reports the error message. An unknown result is not an error: the rule
// is checked again once values are known.
func checkRuleIn(scope *lang.Scope, condition, message hcl.Expression, summary, suffix string) (plans.CheckStatus, string, hcl.Diagnostics) {
	return checkRule(scope, condition, message, summary, suffix, false)
}

// checkRule is checkRuleIn for a variable validation rule (variable) or
// any other.
func checkRule(scope *lang.Scope, condition, message hcl.Expression, summary, suffix string, variable bool) (plans.CheckStatus, string, hcl.Diagnostics) {
	result, diags := scope.EvalExpr(condition, cty.Bool)
	var msg failureMessage
	if !variable {
		// Terraform evaluates the error message of a condition whatever
		// the result, and reports what is wrong with it even when the
		// condition holds; a variable's only when its rule fails.
		msg = evalFailureMessage(scope, message, false)
		diags = append(diags, msg.diags...)
	}
	if diags.HasErrors() {
		return plans.CheckError, "", diags
	}
	result, _ = result.Unmark()
	if !result.IsKnown() {
		return plans.CheckUnknown, "", diags
	}
	if result.IsNull() {
		return plans.CheckError, "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid condition result",
			Detail:   "The condition expression must produce true or false, not null.",
			Subject:  condition.Range().Ptr(),
		})
	}
	if result.True() {
		return plans.CheckPass, "", diags
	}
	if variable {
		msg = evalFailureMessage(scope, message, true)
		if !msg.report {
			return plans.CheckFail, "", append(diags, msg.diags...)
		}
	}
	// The values the condition refers to are shown under the snippet.
	refs, _ := lang.ReferencesInExpr(condition)
	evalCtx, _ := scope.EvalContext(refs)
	diags = append(diags, &hcl.Diagnostic{
		Severity:    hcl.DiagError,
		Summary:     summary,
		Detail:      msg.detail + suffix,
		Subject:     condition.Range().Ptr(),
		Expression:  condition,
		EvalContext: evalCtx,
	})
	if variable {
		diags = append(diags, msg.diags...)
	}
	return plans.CheckFail, msg.text, diags
}

// causedByUnknown marks a diagnostic caused by a value not known yet: the
// unknown values under its snippet are described as known only after
// apply.
type causedByUnknown struct{}

// DiagnosticCausedByUnknown reports true.
func (causedByUnknown) DiagnosticCausedByUnknown() bool { return true }

// invalidMessageDetail is the detail of a failed condition whose error
// message cannot be shown, as Terraform words it.
const invalidMessageDetail = "This check failed, but has an invalid error message as described in the other accompanying messages."

// failureMessage is what a failed condition's error_message gives.
type failureMessage struct {
	// text is the message, "" when it cannot be shown; detail is what
	// the failure's diagnostic says.
	text, detail string
	// report is false when the failure itself is not reported, only the
	// problems with its message (diags), as Terraform does when the
	// message cannot be evaluated.
	report bool
	diags  hcl.Diagnostics
}

// evalFailureMessage evaluates a condition's error_message, never
// showing a sensitive one. What becomes of a message that cannot be used
// follows Terraform, which treats variable validations (variable) apart.
// For a failed condition:
//
//	message           condition, assertion           variable validation
//	evaluation error  its errors only                its errors, and "known only after apply"
//	unknown           the failure, with a note       "known only after apply" only
//	null              "must not be null" only        the failure, "Failed to evaluate"
//	not a string      "string required" only         the failure, and "string required"
//	sensitive         the failure, and a warning     the failure, and an error
//
// The problems of a condition's message (not a variable's) are reported
// even when the condition holds or is not known yet.
func evalFailureMessage(scope *lang.Scope, message hcl.Expression, variable bool) failureMessage {
	v, diags := scope.EvalExpr(message, cty.DynamicPseudoType)
	invalid := func(detail string) *hcl.Diagnostic {
		refs, _ := lang.ReferencesInExpr(message)
		evalCtx, _ := scope.EvalContext(refs)
		return &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Invalid error message",
			Detail:      "Unsuitable value for error message: " + detail + ".",
			Subject:     message.Range().Ptr(),
			Expression:  message,
			EvalContext: evalCtx,
		}
	}
	const evalFailed = "Failed to evaluate condition error message."
	if diags.HasErrors() {
		if !variable {
			return failureMessage{diags: diags}
		}
		v = cty.DynamicVal
	}
	if !v.IsWhollyKnown() {
		if variable {
			d := invalid("expression refers to values that won't be known until the apply phase")
			d.Extra = causedByUnknown{}
			return failureMessage{diags: append(diags, d)}
		}
		return failureMessage{report: true, detail: invalidMessageDetail, diags: diags}
	}
	if marks.Contains(v) {
		d := &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Error message refers to sensitive values",
			Detail: "The error expression used to explain this condition refers to sensitive values, so strata will not display the resulting message.\n\n" +
				"You can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
			Subject: message.Range().Ptr(),
		}
		if variable {
			d.Severity = hcl.DiagError
			d.Detail = strings.Replace(d.Detail, "values, so strata will", "values. strata will", 1)
			return failureMessage{report: true, detail: "The error message included a sensitive value, so it will not be displayed.", diags: append(diags, d)}
		}
		return failureMessage{report: true, detail: invalidMessageDetail, diags: append(diags, d)}
	}
	v = marks.UnmarkDeep(v)
	if v.IsNull() {
		if variable {
			return failureMessage{report: true, detail: evalFailed, diags: diags}
		}
		return failureMessage{diags: append(diags, invalid("must not be null"))}
	}
	str, err := convert.Convert(v, cty.String)
	if err != nil {
		diags = append(diags, invalid("string required"))
		if variable {
			return failureMessage{report: true, detail: evalFailed, diags: diags}
		}
		return failureMessage{diags: diags}
	}
	return failureMessage{report: true, text: str.AsString(), detail: str.AsString(), diags: diags}
}

func (w *walker) evalLocal(n *localNode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, mi := range w.ev.moduleInstances(n.path) {
		v, d := w.ev.scope(mi).EvalExpr(n.cfg.Expr, cty.DynamicPseudoType)
		w.ev.setLocal(mi, n.cfg.Name, v)
		diags = append(diags, d...)
	}
	return diags
}

func outputCheck(n *outputNode) checkObject {
	return checkObject{kind: plans.CheckKindOutput, module: n.path, name: n.cfg.Name}
}

// evalChildOutput evaluates a child module's output in every instance of
// the module, for module.NAME references.
func (w *walker) evalChildOutput(n *outputNode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, mi := range w.ev.moduleInstances(n.path) {
		scope := w.ev.scope(mi)
		for _, rule := range n.cfg.Preconditions {
			diags = append(diags, w.rule(outputCheck(n), mi, addrs.NoKey, scope, rule.Condition, rule.ErrorMessage, "Module output value precondition failed", "")...)
		}
		key := plans.ModuleOutputKey(mi, n.cfg.Name)
		if v, ok := w.plannedModuleOutput(key); ok {
			w.ev.setOutput(mi, n.cfg.Name, v)
			continue
		}
		v, d := scope.EvalExpr(n.cfg.Expr, cty.DynamicPseudoType)
		if !d.HasErrors() {
			var ed hcl.Diagnostics
			v, ed = ephemeralOutput(n.cfg, v)
			d = append(d, ed...)
		}
		if !d.HasErrors() {
			w.recordModuleOutput(key, v)
		}
		w.ev.setOutput(mi, n.cfg.Name, v)
		diags = append(diags, d...)
	}
	w.setInstanceOverrides(n)
	return diags
}

// recordModuleOutput keeps a child output's value as planned, in a plan
// walk that collects them.
func (w *walker) recordModuleOutput(key string, v cty.Value) {
	if w.recordedOutputs == nil {
		return
	}
	w.recordedOutputsMu.Lock()
	w.recordedOutputs[key] = v
	w.recordedOutputsMu.Unlock()
}

// plannedModuleOutput returns, in an apply walk, the output's planned
// value when it was wholly known and carries no ephemeral value (those
// are opened again in apply).
func (w *walker) plannedModuleOutput(key string) (cty.Value, bool) {
	v, ok := w.plannedOutputs[key]
	if !ok || !v.IsWhollyKnown() || marks.ContainsEphemeral(v) {
		return cty.NilVal, false
	}
	return v, true
}

// setInstanceOverrides gives the module instances an override_module
// replaces (module.a[1]) its outputs (null for those it does not give).
func (w *walker) setInstanceOverrides(n *outputNode) {
	for _, o := range w.ev.overridden {
		if !o.mi.Module().Equal(n.path) {
			continue
		}
		v := cty.NullVal(cty.DynamicPseudoType)
		if o.outputs.Type().IsObjectType() && o.outputs.Type().HasAttribute(n.cfg.Name) {
			v = o.outputs.GetAttr(n.cfg.Name)
		}
		w.ev.setOutput(o.mi, n.cfg.Name, v)
	}
}

// expandModule evaluates a module call's count or for_each in every
// instance of the calling module.
func (w *walker) expandModule(n *moduleNode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, caller := range w.ev.moduleInstances(n.path.Parent()) {
		var x *expansion
		var d hcl.Diagnostics
		if n.call.Enabled != nil {
			x, d = expandEnabled(n.call.Enabled, w.ev.scope(caller))
		} else {
			x, d = expandCount(n.call.Count, n.call.ForEach, w.ev.scope(caller))
		}
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		w.ev.setModuleExpansion(caller, n.call.Name, x)
	}
	return diags
}

// evalOutput evaluates a root module output and checks sensitive values
// are declared sensitive.
func (w *walker) evalOutput(n *outputNode) (cty.Value, hcl.Diagnostics) {
	cfg := n.cfg
	var diags hcl.Diagnostics
	scope := w.ev.scope(addrs.RootModuleInstance)
	for _, rule := range cfg.Preconditions {
		diags = append(diags, w.rule(outputCheck(n), addrs.RootModuleInstance, addrs.NoKey, scope, rule.Condition, rule.ErrorMessage, "Module output value precondition failed", "")...)
	}
	v, vdiags := scope.EvalExpr(cfg.Expr, cty.DynamicPseudoType)
	diags = append(diags, vdiags...)
	if !vdiags.HasErrors() && marks.ContainsEphemeral(v) {
		return v, append(diags, ephemeralNotAllowed(cfg))
	}
	if !vdiags.HasErrors() {
		diags = append(diags, sensitiveOutput(cfg, v)...)
	}
	return v, diags
}

// sensitiveOutput is the error for a root module output whose value v is
// sensitive (or holds a sensitive value) without the output being
// declared sensitive.
func sensitiveOutput(cfg *configs.Output, v cty.Value) hcl.Diagnostics {
	if cfg.Sensitive || !marks.Contains(v) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Output refers to sensitive values",
		Detail: `To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, strata requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.

If you do intend to export this data, annotate the output value as sensitive by adding the following argument:
    sensitive = true`,
		Subject: cfg.DeclRange.Ptr(),
	}}
}

// configureProvider evaluates a provider configuration and sends it to the
// provider.
func (w *walker) configureProvider(ctx context.Context, n *providerNode) hcl.Diagnostics {
	if n.cfg == nil && (!n.addr.Module.IsRoot() || n.addr.Alias != "") {
		// Only a root module's default configuration is implied. Any other
		// one without a block is in the state only: its block was removed
		// (with the module that had it) while objects it manages remain.
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Provider configuration not present",
			Detail:   fmt.Sprintf("To work with the objects in the state that were created with %s, its original provider configuration is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy those objects, after which you can remove the provider configuration again.", n.addr),
		}}
	}
	if n.cfg != nil && n.cfg.ForEach != nil {
		// OpenTofu's provider for_each: one provider instance per
		// element, each configured with its each.key and each.value.
		x, diags := w.providerExpansion(n)
		if diags.HasErrors() {
			return diags
		}
		for _, key := range x.keys {
			diags = append(diags, w.configureProviderInstance(ctx, n, n.addr.Instance(key), x.keyData(key))...)
		}
		return diags
	}
	return w.configureProviderInstance(ctx, n, n.addr, lang.InstanceKeyData{})
}

// configureProviderInstance evaluates a provider configuration for one of
// its instances (addr, with the each.key and each.value of key) and sends
// it to that instance's provider.
func (w *walker) configureProviderInstance(ctx context.Context, n *providerNode, addr addrs.AbsProviderConfig, key lang.InstanceKeyData) hcl.Diagnostics {
	p, err := w.ps.get(ctx, addr)
	if err != nil {
		return errorDiags("Failed to start provider", err, nil)
	}
	schema, err := w.ps.schema(ctx, addr)
	if err != nil {
		return errorDiags("Failed to load provider schema", err, nil)
	}
	var diags hcl.Diagnostics
	cfgVal := schema.Provider.Block.EmptyValue()
	var body hcl.Body = hcl.EmptyBody()
	if n.cfg != nil {
		body = n.cfg.Config
	}
	if schema.Provider.Block != nil {
		v, vdiags := w.ev.scope(staticInstance(n.addr.Module)).WithKey(key).EvalBlock(body, schema.Provider.Block)
		diags = append(diags, vdiags...)
		if vdiags.HasErrors() {
			return diags
		}
		cfgVal = v
	}
	rec, known := providerRecord(addr.String(), schema.Provider.Block, cfgVal)
	w.setProviderRecord(addr.String(), rec, known)
	unmarked := marks.UnmarkDeep(cfgVal)
	configured := w.ps.configuration(addr)
	if configured != nil && !configured.same(unmarked) {
		// Kept from an earlier operation, configured otherwise.
		if p, err = w.ps.restart(ctx, addr); err != nil {
			return append(diags, errorDiags("Failed to start provider", err, nil)...)
		}
		configured = nil
	}
	vresp := p.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: unmarked})
	diags = append(diags, providerDiags(vresp.Diagnostics, body, rangePtr(n.cfg))...)
	if diags.HasErrors() {
		return diags
	}
	if configured == nil {
		cresp := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{TerraformVersion: w.e.Version, Config: unmarked})
		configured = &providerConfiguration{config: unmarked, diags: cresp.Diagnostics, ephemeral: marks.ContainsEphemeral(cfgVal)}
		w.ps.setConfiguration(addr, configured)
	}
	diags = append(diags, providerDiags(configured.diags, body, rangePtr(n.cfg))...)
	w.mu.Lock()
	w.configured[addr.String()] = !diags.HasErrors()
	w.mu.Unlock()
	return diags
}

func errorDiags(summary string, err error, subject *hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: err.Error(), Subject: subject}}
}

func rangePtr(p *configs.Provider) *hcl.Range {
	if p == nil {
		return nil
	}
	return p.DeclRange.Ptr()
}

// staticInstance returns the instance of a module path with no keys: the
// only instance of a module that configures providers, which cannot use
// count or for_each.
func staticInstance(p addrs.Module) addrs.ModuleInstance {
	mi := make(addrs.ModuleInstance, len(p))
	for i, name := range p {
		mi[i] = addrs.ModuleInstanceStep{Name: name}
	}
	return mi
}
