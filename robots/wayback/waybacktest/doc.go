// Package waybacktest runs a stand-in web archive on 127.0.0.1 for tests:
// the CDX API (output=json, fl, from, to, limit, showResumeKey, resumeKey;
// the url matched with its scheme, "www." and port removed, as the Wayback
// Machine's canonical URL keys do) and raw captures at
// /web/{timestamp}id_/{original}. Tests never reach the real archive.
package waybacktest
