// Package ssh is the SSH communicator of the remote-exec and file
// provisioners: it connects to a host, directly or through a bastion host,
// authenticating with a password, a private key (optionally with a
// certificate) or an SSH agent, checks the host key when one is given,
// runs commands and copies files and directories with the scp protocol.
//
// It knows nothing of configurations: internal/provisioners decodes a
// connection block into a Config. Only the provisioners import it.
package ssh
