package upgrade

import (
	"encoding/json"
	"fmt"
)

// StateFile returns src converted to state format version `to`. Version 4
// input is returned unchanged; version 3 (Terraform 0.11) is converted;
// anything else is refused with a message saying what to do.
func StateFile(src []byte, to int) ([]byte, error) {
	var head struct {
		Version *json.Number `json:"version"`
	}
	if err := json.Unmarshal(src, &head); err != nil {
		return nil, fmt.Errorf("the state file could not be parsed as JSON: %w", err)
	}
	if head.Version == nil {
		return nil, fmt.Errorf("the state file has no \"version\" property, so it is not a state snapshot")
	}
	v, err := head.Version.Int64()
	if err != nil {
		return nil, fmt.Errorf("the state file has an invalid version %s", *head.Version)
	}
	switch {
	case v == int64(to):
		return src, nil
	case v == 3 && to == 4:
		return v3ToV4(src)
	case v > int64(to):
		return nil, fmt.Errorf("the state file uses format version %d, which this version of strata does not support; it was written by a newer tool: upgrade strata to use it", v)
	default:
		return nil, fmt.Errorf("the state file uses format version %d, which is too old: upgrade it by running Terraform 0.12 (or 0.11 for version 1 and 2) once", v)
	}
}
