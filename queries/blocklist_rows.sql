-- The rows of the block list (blocklist_names.sql's block_rows) in the order of the
-- address, then bot and identity. The program gathers an address's claims from its
-- consecutive rows.
SELECT * FROM block_rows
ORDER BY client_ip, bot, identity;
