// Package webbotauth verifies the signatures of signed requests (Web Bot
// Auth: draft-meunier-web-bot-auth-architecture,
// draft-ietf-webbotauth-httpsig-protocol, over HTTP Message Signatures,
// RFC 9421) from what an access log kept of them: the Signature-Agent,
// Signature-Input and Signature headers, and the request's method, host,
// target and scheme.
//
// It parses the RFC 9651 structured fields of the headers, rebuilds the
// signature base of RFC 9421 §2.5 from the logged components, finds the key
// by its RFC 7638 JWK thumbprint in the signer's directory as of the
// request's time (a Keys of dated directory snapshots: the built-in one,
// and a --keys directory), verifies ed25519, ecdsa-p256-sha256 and
// rsa-pss-sha512, checks created and expires with 60 s of clock skew
// against the log's time, and detects replays (the same nonce, else the same
// signature, from another client address) in bounded memory. Each signed
// request gets one Status with a Reason a person can read; nothing the log
// lacks ever makes a signature invalid.
//
// The package sits beside verify: it imports nothing of audit or cmd.
package webbotauth
