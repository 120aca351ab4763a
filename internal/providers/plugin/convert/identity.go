package convert

import (
	"fmt"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

// identityAttribute is what the identity attribute messages of both
// protocol versions have in common.
type identityAttribute interface {
	GetName() string
	GetType() []byte
	GetRequiredForImport() bool
	GetOptionalForImport() bool
	GetDescription() string
}

// identityBlock converts the attributes of an identity schema into a
// block of attributes: Required are those required for import, Optional
// those optional for import (an import block may leave out every
// attribute that is not required).
func identityBlock[A identityAttribute](attrs []A) (*configschema.Block, error) {
	b := &configschema.Block{Attributes: map[string]*configschema.Attribute{}}
	for _, a := range attrs {
		name := a.GetName()
		if name == "" {
			return nil, fmt.Errorf("an identity attribute has no name")
		}
		if _, dup := b.Attributes[name]; dup {
			return nil, fmt.Errorf("identity attribute %q is declared twice", name)
		}
		ty, err := ctyjson.UnmarshalType(a.GetType())
		if err != nil {
			return nil, fmt.Errorf("identity attribute %q has an invalid type %s: %w", name, a.GetType(), err)
		}
		b.Attributes[name] = &configschema.Attribute{
			Type:        ty,
			Description: a.GetDescription(),
			Required:    a.GetRequiredForImport(),
			Optional:    a.GetOptionalForImport(),
		}
	}
	return b, nil
}

// IdentitySchema5 converts a protocol 5 identity schema into a block and
// its version.
func IdentitySchema5(s *tfplugin5.ResourceIdentitySchema) (*configschema.Block, int64, error) {
	b, err := identityBlock(s.GetIdentityAttributes())
	return b, s.GetVersion(), err
}

// IdentitySchema6 converts a protocol 6 identity schema into a block and
// its version.
func IdentitySchema6(s *tfplugin6.ResourceIdentitySchema) (*configschema.Block, int64, error) {
	b, err := identityBlock(s.GetIdentityAttributes())
	return b, s.GetVersion(), err
}
