package statefile

import (
	"bytes"

	"github.com/strata-dev/strata/internal/states"
)

// SameData reports whether two states hold the same data, whichever
// version of strata or Terraform wrote them: their documents, written
// without the terraform_version, are identical.
func SameData(a, b *states.State) bool {
	ac, bc := a.DeepCopy(), b.DeepCopy()
	ac.TerraformVersion, bc.TerraformVersion = "", ""
	ad, err1 := Write(ac)
	bd, err2 := Write(bc)
	return err1 == nil && err2 == nil && bytes.Equal(ad, bd)
}
