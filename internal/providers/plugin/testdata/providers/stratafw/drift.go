package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// driftDirEnv names the directory of simulated out-of-band changes.
const driftDirEnv = "STRATAFW_DRIFT_DIR"

// applyDrift applies the simulated remote change recorded for the thing
// read, if any: the file <id>.json in $STRATAFW_DRIFT_DIR. The file holds
// either null (the object was deleted; applyDrift returns true) or an
// object whose keys set attributes of st:
//
//	{"description": "changed", "size": 3, "labels": {"env": "prod"}, "name": "other"}
//
// A null value unsets description or labels. Other keys, or values of the
// wrong type, are reported as errors so that a mistyped test fails loudly.
func applyDrift(st *thingModel, diags *diag.Diagnostics) bool {
	dir := os.Getenv(driftDirEnv)
	if dir == "" || st.ID.IsNull() || st.ID.IsUnknown() {
		return false
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.Base(st.ID.ValueString())+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		diags.AddError("Reading simulated drift", err.Error())
		return false
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		diags.AddError("Invalid simulated drift", fmt.Sprintf("%s: %s", st.ID.ValueString(), err))
		return false
	}
	if fields == nil {
		return true // null: deleted
	}
	for key, raw := range fields {
		null := string(raw) == "null"
		var err error
		switch key {
		case "name":
			var v string
			err = json.Unmarshal(raw, &v)
			st.Name = types.StringValue(v)
		case "description":
			var v *string
			err = json.Unmarshal(raw, &v)
			st.Description = types.StringPointerValue(v)
		case "size":
			var v int64
			err = json.Unmarshal(raw, &v)
			st.Size = types.Int64Value(v)
		case "labels":
			var v map[string]string
			err = json.Unmarshal(raw, &v)
			if null {
				st.Labels = types.MapNull(types.StringType)
				break
			}
			elems := make(map[string]attr.Value, len(v))
			for k, e := range v {
				elems[k] = types.StringValue(e)
			}
			st.Labels = types.MapValueMust(types.StringType, elems)
		default:
			err = fmt.Errorf("unsupported attribute %q", key)
		}
		if err != nil {
			diags.AddError("Invalid simulated drift", fmt.Sprintf("%s: %s: %s", st.ID.ValueString(), key, err))
		}
	}
	return false
}
