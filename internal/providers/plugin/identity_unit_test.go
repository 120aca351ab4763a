package plugin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
)

// identityWire answers GetProviderSchema with one resource type and
// GetResourceIdentitySchemas as the test says; nothing else is called.
type identityWire struct {
	wire
	ids identitySchemas
	err error
}

func (w *identityWire) getProviderSchema(context.Context) (*schemaSet, error) {
	return &schemaSet{resp: providers.GetProviderSchemaResponse{
		ResourceTypes: map[string]providers.Schema{"t_a": {Block: &configschema.Block{}}},
	}}, nil
}

func (w *identityWire) getResourceIdentitySchemas(context.Context) (identitySchemas, []byte, error) {
	return w.ids, nil, w.err
}

func TestClientIdentitySchemas(t *testing.T) {
	block := &configschema.Block{Attributes: map[string]*configschema.Attribute{}}
	tests := map[string]struct {
		w            *identityWire
		wantIdentity bool
		wantError    string
	}{
		"unimplemented": {w: &identityWire{err: status.Error(codes.Unimplemented, "no")}},
		"none":          {w: &identityWire{ids: identitySchemas{schemas: map[string]identitySchema{}}}},
		"one": {w: &identityWire{ids: identitySchemas{schemas: map[string]identitySchema{"t_a": {block: block, version: 3}}}},
			wantIdentity: true},
		"undeclared type": {w: &identityWire{ids: identitySchemas{schemas: map[string]identitySchema{"t_other": {block: block}}}}},
		"invalid": {w: &identityWire{ids: identitySchemas{schemas: map[string]identitySchema{}}, err: errInvalidForTest},
			wantError: "Invalid provider schema"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Client{name: "test", wire: tt.w}
			resp := p.GetProviderSchema(context.Background())
			if tt.wantError != "" {
				if findDiag(resp.Diagnostics, tt.wantError) == nil {
					t.Fatalf("diagnostics %s, want %q", fmtDiags(resp.Diagnostics), tt.wantError)
				}
				return
			}
			noDiags(t, "GetProviderSchema", resp.Diagnostics)
			s := resp.ResourceTypes["t_a"]
			if got := s.Identity != nil; got != tt.wantIdentity {
				t.Fatalf("identity %v, want %v", s.Identity, tt.wantIdentity)
			}
			if tt.wantIdentity && s.IdentityVersion != 3 {
				t.Errorf("identity version %d, want 3", s.IdentityVersion)
			}
			if len(resp.ResourceTypes) != 1 {
				t.Errorf("resource types %v", resp.ResourceTypes)
			}
		})
	}
}

type testError string

func (e testError) Error() string { return string(e) }

const errInvalidForTest = testError(`identity attribute "x" has an invalid type`)

// cacheWire is a provider whose schemas may be cached: raw bytes stand for
// the encoded responses. called counts GetResourceIdentitySchemas calls.
type cacheWire struct {
	wire
	ids    *identitySchemas // nil: the RPC is not implemented
	called int
}

func (w *cacheWire) set() *schemaSet {
	return &schemaSet{optional: true, raw: []byte("schema"), resp: providers.GetProviderSchemaResponse{
		ResourceTypes: map[string]providers.Schema{"t_a": {Block: &configschema.Block{}}},
	}}
}

func (w *cacheWire) getProviderSchema(context.Context) (*schemaSet, error) { return w.set(), nil }

func (w *cacheWire) decodeSchema(raw []byte) (*schemaSet, error) {
	s := w.set()
	s.raw = raw
	return s, nil
}

func (w *cacheWire) getResourceIdentitySchemas(context.Context) (identitySchemas, []byte, error) {
	w.called++
	if w.ids == nil {
		return identitySchemas{}, nil, status.Error(codes.Unimplemented, "no")
	}
	return *w.ids, []byte("identity"), nil
}

func (w *cacheWire) decodeIdentitySchemas(raw []byte) (identitySchemas, error) {
	if string(raw) != "identity" || w.ids == nil {
		return identitySchemas{}, errInvalidForTest
	}
	return *w.ids, nil
}

// TestIdentitySchemaCacheFiles: the schema cache keeps the identity
// schemas, or the mark that the provider has none, so that the next
// command's process asks for neither.
func TestIdentitySchemaCacheFiles(t *testing.T) {
	ids := &identitySchemas{schemas: map[string]identitySchema{"t_a": {block: &configschema.Block{}, version: 1}}}
	for name, tc := range map[string]*identitySchemas{"with identities": ids, "unimplemented": nil} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			sharedSchemas.Clear()
			t.Cleanup(sharedSchemas.Clear)
			first := &cacheWire{ids: tc}
			p := &Client{name: "test", wire: first, binary: "bin-" + name, schemaCacheDir: dir}
			noDiags(t, "GetProviderSchema", p.GetProviderSchema(context.Background()).Diagnostics)
			if first.called != 1 {
				t.Fatalf("first process asked %d times", first.called)
			}
			sharedSchemas.Clear()
			next := &cacheWire{ids: tc}
			q := &Client{name: "test", wire: next, binary: "bin-" + name, schemaCacheDir: dir}
			resp := q.GetProviderSchema(context.Background())
			noDiags(t, "GetProviderSchema", resp.Diagnostics)
			if next.called != 0 {
				t.Errorf("the next process asked for identity schemas %d times", next.called)
			}
			if got, want := resp.ResourceTypes["t_a"].Identity != nil, tc != nil; got != want {
				t.Errorf("identity from the cache: %v, want %v", got, want)
			}
			// A cache written before strata knew of identities has
			// neither file: the provider is asked for these alone.
			marks, _ := filepath.Glob(filepath.Join(dir, "*identity"))
			for _, m := range marks {
				if err := os.Remove(m); err != nil {
					t.Fatal(err)
				}
			}
			if len(marks) != 1 {
				t.Errorf("identity cache files %v, want one", marks)
			}
			sharedSchemas.Clear()
			old := &cacheWire{ids: tc}
			r := &Client{name: "test", wire: old, binary: "bin-" + name, schemaCacheDir: dir}
			resp = r.GetProviderSchema(context.Background())
			if old.called != 1 || (resp.ResourceTypes["t_a"].Identity != nil) != (tc != nil) {
				t.Errorf("with an old cache: asked %d times, identity %v", old.called, resp.ResourceTypes["t_a"].Identity)
			}
		})
	}
}
