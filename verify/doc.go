// Package verify answers who really made a request: given the
// crawler a User-Agent claims, the client address and the instant of the
// request, it says whether the crawler's operator vouches for that address
// (verified), disowns it (spoofed), or whether nothing settles it
// (unverified), with the evidence.
//
// The evidence comes from the operators' published IP range lists, each
// with its history (a list is in effect from its creation time until the
// next one), and from forward-confirmed reverse DNS (package verify/rdns)
// for the operators that document their domains. Missing data never makes
// a request spoofed: a request older than a source's first list, a DNS
// timeout, a line without a client address are unverified.
package verify
