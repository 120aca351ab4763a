package plugin

import (
	"context"
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
