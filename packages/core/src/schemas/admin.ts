/** Menu, role and role-ACL schemas (spec sections 3, 6 and 7), shared by the web app and the API. */
import { z } from 'zod';
import { idText } from '../ids.ts';
import { aclSchema } from './auth.ts';

/** The fields of a menu entry (without children). `title` is an i18n key. */
export const menuEntryFieldsSchema = z.object({
  id: z.number().int(),
  id_parent: z.number().int().nullable(),
  title: z.string().describe("i18n key: 'menu.<id>' or 'menu.group.<id>'"),
  icon: z.string().describe('@ant-design/icons component name'),
  prefix: z.string(),
  slug: z.string(),
  permission: z.string().describe("ACL resource needed to see the entry; '' for none"),
  hidden: z.boolean(),
  order: z.number().int().optional(),
});

/** A menu entry of GET /v1/admin/menu; `children` nests the tree (any depth). */
export const menuEntrySchema = menuEntryFieldsSchema.extend({
  get children() {
    return z.array(menuEntrySchema).optional();
  },
});

/**
 * The same tree to three levels without recursion, for the OpenAPI document (a recursive schema
 * becomes a $ref the document does not carry).
 */
export const menuTreeDocSchema = z.array(
  menuEntryFieldsSchema.extend({
    children: z.array(menuEntryFieldsSchema.extend({ children: z.array(menuEntryFieldsSchema).optional() })).optional(),
  }),
);

export const roleSchema = z.object({ id: z.number().int(), name: z.string() });
export type Role = z.infer<typeof roleSchema>;

/** GET /v1/admin/role/:id/acl: what a role simulation loads. */
export const roleAclSchema = z.object({ id: z.number().int(), name: z.string(), acl: aclSchema });
export type RoleAcl = z.infer<typeof roleAclSchema>;

export const roleIdParamsSchema = z.strictObject({ id: idText });
