package engine

import (
	"context"
	"fmt"
	"sync"

	"github.com/zclconf/go-cty/cty/function"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/providers"
)

// providerFunctions builds the provider-defined functions of one walk.
// As in Terraform, calls go to an instance of each provider started for
// function calls alone and never configured, so that a function can be
// called anywhere, even in the configuration of its own provider, and
// plan does not need any provider configured to call one. The instance is
// started, and its schema read, on the first call into the provider.
type providerFunctions struct {
	ps *providerSet

	mu    sync.Mutex
	built map[addrs.Provider]*builtFunctions
}

type builtFunctions struct {
	once sync.Once
	fns  map[string]function.Function
	err  error
}

// functionsKey is the key of the function-call instance of a provider in
// the providerSet, apart from any provider configuration's.
func functionsKey(p addrs.Provider) string { return "functions:" + p.String() }

// functions returns the provider's functions, built once per walk.
func (pf *providerFunctions) functions(provider addrs.Provider) (map[string]function.Function, error) {
	pf.mu.Lock()
	if pf.built == nil {
		pf.built = map[addrs.Provider]*builtFunctions{}
	}
	b := pf.built[provider]
	if b == nil {
		b = &builtFunctions{}
		pf.built[provider] = b
	}
	pf.mu.Unlock()
	b.once.Do(func() { b.fns, b.err = pf.build(provider) })
	return b.fns, b.err
}

func (pf *providerFunctions) build(provider addrs.Provider) (map[string]function.Function, error) {
	// Function calls have no context of their own; Ctrl-C reaches the
	// instance through the providerSet's stopAll.
	ctx := context.Background()
	schema, ok := pf.ps.schemas.get(provider)
	if !ok {
		p, err := pf.instance(ctx, provider)
		if err != nil {
			return nil, err
		}
		resp := p.GetProviderSchema(ctx)
		if resp.Diagnostics.HasErrors() {
			return nil, fmt.Errorf("failed to load schema of provider %s: %s", provider.ForDisplay(), diagText(resp.Diagnostics))
		}
		pf.ps.schemas.put(provider, &resp)
		schema = &resp
	}
	fns := make(map[string]function.Function, len(schema.Functions))
	for name, decl := range schema.Functions {
		fns[name] = decl.Function(name, func(req providers.CallFunctionRequest) providers.CallFunctionResponse {
			p, err := pf.instance(ctx, provider)
			if err != nil {
				return providers.CallFunctionResponse{Err: err}
			}
			return p.CallFunction(ctx, req)
		})
	}
	return fns, nil
}

// instance returns the provider's function-call instance, starting it on
// first use. The providerSet stops and closes it with the others.
func (pf *providerFunctions) instance(_ context.Context, provider addrs.Provider) (providers.Interface, error) {
	f, ok := pf.ps.factories[provider]
	if !ok {
		return nil, fmt.Errorf("provider %s is not available; run \"strata init\" to install the providers this configuration uses", provider.ForDisplay())
	}
	return pf.ps.instance(functionsKey(provider), provider, f)
}

var _ lang.ProviderFunctionData = (*moduleData)(nil)

// ProviderFunctions implements lang.ProviderFunctionData: a module calls
// the functions of the providers in its required_providers block, by
// their local names there (Terraform offers no others, not even those of
// implied providers).
func (d *moduleData) ProviderFunctions(localName string) (map[string]function.Function, bool, error) {
	rp, ok := d.cfg.Module.RequiredProviders[localName]
	if !ok || d.ev.providerFuncs == nil {
		return nil, false, nil
	}
	fns, err := d.ev.providerFuncs.functions(rp.Source)
	return fns, true, err
}
