package planfile

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// encodeValue stores a possibly unknown, possibly sensitive value.
func encodeValue(v cty.Value) (valueJSON, error) {
	if v == cty.NilVal {
		v = cty.NullVal(cty.DynamicPseudoType)
	}
	unmarked, paths := marks.Paths(v)
	ty := unmarked.Type()
	tyJSON, err := ctyjson.MarshalType(ty)
	if err != nil {
		return valueJSON{}, err
	}
	mp, err := ctymsgpack.Marshal(unmarked, ty)
	if err != nil {
		return valueJSON{}, err
	}
	out := valueJSON{Type: tyJSON, Msgpack: mp}
	if len(paths) > 0 {
		if out.Sensitive, err = statefile.MarshalPaths(paths); err != nil {
			return valueJSON{}, err
		}
	}
	return out, nil
}

// decodeValue restores what encodeValue stored, marks included.
func decodeValue(j valueJSON) (cty.Value, error) {
	ty, err := ctyjson.UnmarshalType(j.Type)
	if err != nil {
		return cty.NilVal, fmt.Errorf("invalid value type: %w", err)
	}
	v, err := ctymsgpack.Unmarshal(j.Msgpack, ty)
	if err != nil {
		return cty.NilVal, fmt.Errorf("invalid value: %w", err)
	}
	paths, err := statefile.UnmarshalPaths(j.Sensitive)
	if err != nil {
		return cty.NilVal, err
	}
	return marks.Apply(v, paths), nil
}

var actionNames = map[plans.Action]string{
	plans.NoOp: "no-op", plans.Create: "create", plans.Read: "read", plans.Update: "update",
	plans.DeleteThenCreate: "delete-then-create", plans.CreateThenDelete: "create-then-delete", plans.Delete: "delete", plans.Forget: "forget",
}

func actionName(a plans.Action) string { return actionNames[a] }

func parseAction(s string) (plans.Action, error) {
	for a, name := range actionNames {
		if name == s {
			return a, nil
		}
	}
	return plans.NoOp, fmt.Errorf("unknown action %q", s)
}

var modeNames = map[plans.Mode]string{plans.NormalMode: "normal", plans.DestroyMode: "destroy", plans.RefreshOnlyMode: "refresh-only"}

func parseMode(s string) (plans.Mode, error) {
	for m, name := range modeNames {
		if name == s {
			return m, nil
		}
	}
	return plans.NormalMode, fmt.Errorf("unknown plan mode %q", s)
}
