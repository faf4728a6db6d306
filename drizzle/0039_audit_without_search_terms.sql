-- CSV exports recorded what was searched for (a name, an e-mail address) in the audit log's detail: keep
-- only that a search was made, so no search term outlives the erasure of the customer it named.
update audit_log
   set to_value = jsonb_set(
         to_value,
         '{detail}',
         to_jsonb(regexp_replace(to_value->>'detail', '"search":"([^"\\]|\\.)*("|$)', '"searched":true', 'g')))
 where action = 'export.csv'
   and jsonb_typeof(to_value->'detail') = 'string'
   and to_value->>'detail' like '%"search":"%';
