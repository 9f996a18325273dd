// Package hostilegen writes access logs made to cost an auditor memory: many
// distinct bot User-Agents, paths and addresses, or very long URLs. The bot
// strings of a log are attacker-controlled; these logs are the
// worst cases the memory figures of docs/performance.md are measured on
// (scripts/memory.sh). Output is deterministic: the same options give the
// same bytes.
package hostilegen
