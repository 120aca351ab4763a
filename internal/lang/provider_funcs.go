package lang

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty/function"
)

// ProviderFunctionData is implemented by a Data whose module can call
// provider-defined functions, written provider::NAME::FUNCTION(...) with
// NAME a local name from the module's required_providers.
type ProviderFunctionData interface {
	// ProviderFunctions returns the functions of the provider the module
	// declares under localName, keyed by function name. declared is false
	// when the module declares no provider of that name; err says why the
	// functions of a declared provider could not be had.
	ProviderFunctions(localName string) (fns map[string]function.Function, declared bool, err error)
}

// providerFuncsPrefix starts the namespace of every provider-defined
// function.
const providerFuncsPrefix = "provider::"

// providerFuncs caches, for the scopes of one module instance, the
// provider function namespaces resolved so far. Expressions are first
// evaluated with the namespaces already known; a call into another one
// fails as a call to an unknown function, which names the namespace, and
// the expression is evaluated again once it is resolved. So a provider is
// only asked for its functions when the configuration calls one, and
// neither the expression syntax (native or JSON) nor dynamic blocks need
// scanning beforehand.
type providerFuncs struct {
	mu sync.Mutex
	// table maps "provider::NAME::FUNC" to its function. It is replaced,
	// never modified, so evaluations may keep reading an older one.
	table map[string]function.Function
	// resolved records each namespace asked for ("provider::NAME::"),
	// with the error that stopped it, if any.
	resolved map[string]*namespaceResult
}

type namespaceResult struct {
	declared bool
	err      error
}

func (pf *providerFuncs) functions() map[string]function.Function {
	if pf == nil {
		return nil
	}
	pf.mu.Lock()
	defer pf.mu.Unlock()
	return pf.table
}

// withProviderFuncs returns ctx with the provider functions resolved so far in a
// child context, so that the shared table of built-in functions is not
// copied for every expression.
func (s *Scope) withProviderFuncs(ctx *hcl.EvalContext) *hcl.EvalContext {
	fns := s.pf.functions()
	if len(fns) == 0 {
		return ctx
	}
	child := ctx.NewChild()
	child.Functions = fns
	return child
}

// resolveProviderFuncs resolves the provider namespaces that diags report
// unknown function calls in. It returns true when a function reported
// unknown is now in the table, so that the evaluation that produced diags
// is worth repeating (it may also have been resolved meanwhile by another
// evaluation).
func (s *Scope) resolveProviderFuncs(diags hcl.Diagnostics) bool {
	if s.pf == nil {
		return false
	}
	pfd, _ := s.Data.(ProviderFunctionData)
	retry := false
	for _, d := range diags {
		ns, name, ok := unknownProviderFunc(d)
		if !ok {
			continue
		}
		s.pf.mu.Lock()
		_, done := s.pf.resolved[ns]
		s.pf.mu.Unlock()
		if !done {
			s.resolveNamespace(pfd, ns)
		}
		s.pf.mu.Lock()
		_, found := s.pf.table[ns+name]
		s.pf.mu.Unlock()
		retry = retry || found
	}
	return retry
}

// resolveNamespace asks the module for the functions of one provider
// namespace and records the answer.
func (s *Scope) resolveNamespace(pfd ProviderFunctionData, ns string) {
	res := &namespaceResult{}
	local := strings.TrimSuffix(strings.TrimPrefix(ns, providerFuncsPrefix), "::")
	var fns map[string]function.Function
	if pfd != nil && !strings.Contains(local, "::") {
		fns, res.declared, res.err = pfd.ProviderFunctions(local)
	}
	s.pf.mu.Lock()
	defer s.pf.mu.Unlock()
	if _, done := s.pf.resolved[ns]; done {
		return
	}
	if s.pf.resolved == nil {
		s.pf.resolved = map[string]*namespaceResult{}
	}
	s.pf.resolved[ns] = res
	if len(fns) == 0 {
		return
	}
	table := make(map[string]function.Function, len(s.pf.table)+len(fns))
	for k, f := range s.pf.table {
		table[k] = f
	}
	for name, f := range fns {
		table[ns+name] = f
	}
	s.pf.table = table
}

// unknownProviderFunc recognises HCL's diagnostic for a call to an unknown
// function in a provider:: namespace and returns the namespace and the
// function name.
func unknownProviderFunc(d *hcl.Diagnostic) (ns, name string, ok bool) {
	extra, isUnknown := hcl.DiagnosticExtra[hclsyntax.FunctionCallUnknownDiagExtra](d)
	if !isUnknown {
		return "", "", false
	}
	ns = extra.CalledFunctionNamespace()
	if !strings.HasPrefix(ns, providerFuncsPrefix) {
		return "", "", false
	}
	return ns, extra.CalledFunctionName(), true
}

// providerFuncDiags rewrites the unknown-function diagnostics left after
// resolution into Terraform's messages: the provider is not declared, does
// not offer the function, or could not be asked.
func (s *Scope) providerFuncDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	for i, d := range diags {
		if extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallUnknownDiagExtra](d); ok {
			if ns := extra.CalledFunctionNamespace(); ns != "" && !strings.HasPrefix(ns, providerFuncsPrefix) {
				// Another namespace (or core:: with no such function).
				nd := *d
				nd.Summary = "Unknown provider function"
				nd.Detail = fmt.Sprintf("The function namespace %q is not valid. Provider function calls must use the %q namespace prefix.", strings.TrimSuffix(ns, "::"), providerFuncsPrefix)
				diags[i] = &nd
				continue
			}
		}
		ns, name, ok := unknownProviderFunc(d)
		if !ok {
			continue
		}
		var res *namespaceResult
		if s.pf != nil {
			s.pf.mu.Lock()
			res = s.pf.resolved[ns]
			s.pf.mu.Unlock()
		}
		local := strings.TrimSuffix(strings.TrimPrefix(ns, providerFuncsPrefix), "::")
		nd := *d
		nd.Summary = "Unknown provider function"
		nd.Detail = fmt.Sprintf("There is no function named %q. Ensure that provider name %q is declared in this module's required_providers block, and that this provider offers a function named %q.", ns+name, local, name)
		switch {
		case res != nil && res.err != nil:
			nd.Summary = "Failed to load provider functions"
			nd.Detail = fmt.Sprintf("strata could not get the functions of the provider %q to call %s: %s.", local, ns+name, res.err)
		case res != nil && res.declared:
			nd.Detail = fmt.Sprintf("The function %q is not available from the provider %q.", name, local)
		}
		diags[i] = &nd
	}
	return diags
}
