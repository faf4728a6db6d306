-- The confirm-details template and its macro: the order's failing checks to the customer (docs/product.md, "Order checks").
WITH t AS (INSERT INTO "mail_templates" ("key", "language", "purpose", "name") VALUES ('confirm-details', 'en', 'customer', 'Please confirm your details') RETURNING "id")
INSERT INTO "mail_template_versions" ("template_id", "version", "subject", "body") SELECT "id", 1, 'Please confirm your details (order {{order_id}})', 'Dear {{full_name}},

Before we send your Aruba ED Card application (order {{order_id}}) to the government, please check these details:

{{failing_checks}}

Reply to this e-mail with the right details, or confirm that they are correct. We will correct your application and send it on.

Need help? Contact support: {{support_email}} ({{contact_url}})

{{brand_name}}' FROM t;--> statement-breakpoint
WITH t AS (INSERT INTO "mail_templates" ("key", "language", "purpose", "name") VALUES ('confirm-details', 'es', 'customer', 'Please confirm your details') RETURNING "id")
INSERT INTO "mail_template_versions" ("template_id", "version", "subject", "body") SELECT "id", 1, 'Por favor confirme sus datos (pedido {{order_id}})', 'Estimado/a {{full_name}}:

Antes de enviar su solicitud de Aruba ED Card (pedido {{order_id}}) al gobierno, por favor revise estos datos:

{{failing_checks}}

Responda a este correo con los datos correctos, o confirme que son correctos. Corregiremos su solicitud y la enviaremos.

¿Necesita ayuda? Contacte a soporte: {{support_email}} ({{contact_url}})

{{brand_name}}' FROM t;--> statement-breakpoint
WITH t AS (INSERT INTO "mail_templates" ("key", "language", "purpose", "name") VALUES ('confirm-details', 'nl', 'customer', 'Please confirm your details') RETURNING "id")
INSERT INTO "mail_template_versions" ("template_id", "version", "subject", "body") SELECT "id", 1, 'Bevestig alstublieft uw gegevens (bestelling {{order_id}})', 'Beste {{full_name}},

Voordat we uw aanvraag voor de Aruba ED Card (bestelling {{order_id}}) naar de overheid sturen, vragen we u deze gegevens te controleren:

{{failing_checks}}

Beantwoord deze e-mail met de juiste gegevens, of bevestig dat ze kloppen. Wij passen uw aanvraag aan en sturen hem door.

Hulp nodig? Neem contact op met support: {{support_email}} ({{contact_url}})

{{brand_name}}' FROM t;--> statement-breakpoint
WITH t AS (INSERT INTO "mail_templates" ("key", "language", "purpose", "name") VALUES ('confirm-details', 'pap', 'customer', 'Please confirm your details') RETURNING "id")
INSERT INTO "mail_template_versions" ("template_id", "version", "subject", "body") SELECT "id", 1, 'Por fabor confirmá bo datonan (orden {{order_id}})', 'Estimá {{full_name}},

Promé cu nos manda bo aplicacion di Aruba ED Card (orden {{order_id}}) pa gobierno, por fabor controlá e datonan aki:

{{failing_checks}}

Contestá e e-mail aki cu e datonan corecto, of confirmá cu nan ta corecto. Nos lo corigí bo aplicacion y mand''é.

Bo mester yudansa? Tuma contacto cu support: {{support_email}} ({{contact_url}})

{{brand_name}}' FROM t;--> statement-breakpoint
WITH t AS (INSERT INTO "mail_templates" ("key", "language", "purpose", "name") VALUES ('confirm-details', 'pt', 'customer', 'Please confirm your details') RETURNING "id")
INSERT INTO "mail_template_versions" ("template_id", "version", "subject", "body") SELECT "id", 1, 'Por favor confirme seus dados (pedido {{order_id}})', 'Prezado(a) {{full_name}},

Antes de enviarmos sua solicitação do Aruba ED Card (pedido {{order_id}}) ao governo, por favor verifique estes dados:

{{failing_checks}}

Responda a este e-mail com os dados corretos, ou confirme que estão corretos. Corrigiremos sua solicitação e a enviaremos.

Precisa de ajuda? Fale com o suporte: {{support_email}} ({{contact_url}})

{{brand_name}}' FROM t;--> statement-breakpoint
INSERT INTO "macros" ("name", "remark", "move_to", "template_key", "whatsapp_text", "requires_document") VALUES ('Please confirm your details', 'Asked the customer to confirm the details the checks flagged.', null, 'confirm-details', null, false);