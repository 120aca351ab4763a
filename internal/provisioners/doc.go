// Package provisioners defines what a provisioner is to the engine — a
// schema for its block, a validation and a run — and owns the connection
// block that the remote provisioners share: its schema, Terraform's
// defaults, and the SSH communicator it opens. The provisioners
// themselves are in its subpackages (localexec, remoteexec, file); the
// engine picks one by the block's type. Nothing but the engine and the
// provisioners import it.
package provisioners
