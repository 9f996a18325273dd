// Command hostilegen writes the hostile access logs of package hostilegen to
// stdout (or -o FILE), and with -robots FILE the robots.txt that goes with
// them. It is run by scripts/memory.sh.
package main
