/**
 * The user command (`npm run user -- <command> …`): create users, set passwords, assign roles,
 * list and disable users, list and end their sessions. The only way to manage accounts in production. Every change is
 * audit-logged (actor null, `via: 'cli'`). Passwords are read from --password, from stdin
 * (--password-stdin, or when stdin is not a terminal), or prompted without echo; hashes are
 * never printed.
 */
import { isCompanyMail, normalizeMail } from '@backoffice/core/mail';
import { and, asc, eq, sql } from 'drizzle-orm';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import { roles, staff, userRoles, users } from '../db/schema.ts';
import { seedRoles, staffPicPath } from '../db/seed.ts';
import { audit } from '../plugins/audit.ts';
import { endUserSessions, listOpenSessions } from '../plugins/sessions.ts';
import { hashPassword, passwordProblem } from './password.ts';

export const USER_CLI_USAGE = `Usage: npm run user -- <command> [options]

Commands:
  list                                   List users with their roles and status
  roles                                  List roles
  create --mail <m> --name <n> [--role <R>]... [--password <p> | --password-stdin]
         [--greeting <text>] [--no-roster]
                                         Create a user (and its staff roster entry for the
                                         welcome panel, unless --no-roster)
  set-password --mail <m> [--password <p> | --password-stdin]
                                         Set a user's password
  add-role --mail <m> --role <R>         Give a user a role (by name, e.g. FINANCE, or id)
  remove-role --mail <m> --role <R>      Take a role away
  disable --mail <m> | enable --mail <m> Disable (cannot sign in; ends their sessions) or
                                         re-enable a user (ended sessions stay ended)
  sessions --mail <m>                    List a user's open sessions (sign-ins, simulations)
  end-sessions --mail <m>                End every open session of a user (sign them out)
  seed-roles [--update]                  Install the standard role catalogue (ADMIN, FINANCE,
                                         TECH, …); --update also resets their ACLs
  help                                   This text

A mail without '@' gets the primary company domain. Without --password the password is read
from stdin when it is not a terminal, else prompted twice without echo.`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Reads a password: stdin (not a terminal) or a prompt without echo. */
  readPassword(prompt: string): Promise<string>;
  /** A person types at a terminal (a prompted password is asked twice). */
  interactive: boolean;
}

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

const OPTIONS = {
  mail: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string', multiple: true },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  greeting: { type: 'string' },
  'no-roster': { type: 'boolean' },
  update: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function requireOpt(values: Values, name: 'mail' | 'name'): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new CliError(`--${name} is required\n\n${USER_CLI_USAGE}`, 2);
  return v.trim();
}

function mailOf(values: Values, config: Config): string {
  const mail = normalizeMail(requireOpt(values, 'mail'), config.companyDomains);
  if (!isCompanyMail(mail, config.companyDomains)) {
    throw new CliError(`${mail} is not on a company domain (${config.companyDomains.join(', ')}); only those can sign in`);
  }
  return mail;
}

async function passwordOf(values: Values, config: Config, io: CliIo): Promise<string> {
  let password: string;
  if (typeof values.password === 'string') password = values.password;
  else {
    password = await io.readPassword('Password: ');
    if (io.interactive && !values['password-stdin']) {
      const again = await io.readPassword('Repeat password: ');
      if (again !== password) throw new CliError('The passwords do not match');
    }
  }
  const problem = passwordProblem(password, { demoPassword: config.demoPassword, production: config.env === 'production' });
  if (problem) throw new CliError(`The password ${problem}`);
  return password;
}

async function findUser(db: Db, mail: string) {
  const [row] = await db
    .select({ id: users.id, mail: users.mail, name: users.name, active: users.active })
    .from(users)
    .where(eq(sql`lower(${users.mail})`, mail));
  if (!row) throw new CliError(`No user with mail ${mail}`);
  return row;
}

async function findRoleByRef(db: Db, ref: string) {
  const byId = /^\d+$/.test(ref);
  const [row] = await db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(byId ? eq(roles.id, Number(ref)) : eq(sql`lower(${roles.name})`, ref.toLowerCase()));
  if (!row) throw new CliError(`No role ${ref} (see: npm run user -- roles)`);
  return row;
}

const cli = (after: Record<string, unknown>) => ({ via: 'cli', ...after });

/** Runs one command; answers the exit code. */
export async function runUserCli(argv: string[], database: Database, config: Config, io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`${(err as Error).message}\n\n${USER_CLI_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const command = positionals[0] ?? 'help';
  if (values.help || command === 'help') {
    io.out(USER_CLI_USAGE);
    return 0;
  }
  const db = database.db;
  try {
    switch (command) {
      case 'list': {
        const rows = await db
          .select({ id: users.id, mail: users.mail, name: users.name, active: users.active, roles: sql<string>`coalesce(string_agg(${roles.name}, ',' order by ${roles.name}), '')` })
          .from(users)
          .leftJoin(userRoles, eq(userRoles.userId, users.id))
          .leftJoin(roles, eq(roles.id, userRoles.roleId))
          .groupBy(users.id)
          .orderBy(asc(users.id));
        const w = Math.max(4, ...rows.map((r) => r.mail.length));
        io.out(`${'id'.padStart(5)}  ${'mail'.padEnd(w)}  ${'status'.padEnd(8)}  roles  (name)`);
        for (const r of rows) {
          io.out(`${String(r.id).padStart(5)}  ${r.mail.padEnd(w)}  ${(r.active ? 'active' : 'disabled').padEnd(8)}  ${r.roles || '-'}  (${r.name})`);
        }
        io.out(`${rows.length} user(s)`);
        return 0;
      }
      case 'roles': {
        const rows = await db.select({ id: roles.id, name: roles.name, description: roles.description }).from(roles).orderBy(asc(roles.id));
        for (const r of rows) io.out(`${String(r.id).padStart(5)}  ${r.name.padEnd(18)}  ${r.description}`);
        return 0;
      }
      case 'seed-roles': {
        const ids = await seedRoles(db, { update: values.update === true });
        await audit(db, null, { action: 'role.seed', entity: 'role', actorId: null, simulatedById: null, after: cli({ roles: [...ids.keys()], update: values.update === true }) });
        io.out(`${ids.size} standard role(s) installed${values.update ? ' (ACLs reset)' : ''}`);
        return 0;
      }
      case 'create': {
        const mail = mailOf(values, config);
        const name = requireOpt(values, 'name');
        const roleRefs = (values.role ?? []).flatMap((r) => r.split(',')).map((r) => r.trim()).filter(Boolean);
        const roleRows: { id: number; name: string }[] = [];
        for (const ref of roleRefs) roleRows.push(await findRoleByRef(db, ref));
        const password = await passwordOf(values, config, io);
        const passwordHash = await hashPassword(password);
        const id = await db.transaction(async (tx) => {
          const [row] = await tx.insert(users).values({ mail, name, passwordHash }).onConflictDoNothing().returning({ id: users.id });
          if (!row) throw new CliError(`A user with mail ${mail} already exists`);
          for (const role of roleRows) await tx.insert(userRoles).values({ userId: row.id, roleId: role.id }).onConflictDoNothing();
          if (!values['no-roster']) {
            const [entry] = await tx
              .insert(staff)
              .values({ mail, name, text: values.greeting ?? null, pic: '' })
              .onConflictDoNothing()
              .returning({ id: staff.id });
            if (entry) await tx.update(staff).set({ pic: staffPicPath(entry.id) }).where(eq(staff.id, entry.id));
          }
          await audit(tx as unknown as Db, null, {
            action: 'user.create', entity: 'user', entityId: row.id, actorId: null, simulatedById: null,
            after: cli({ mail, name, roles: roleRows.map((r) => r.name) }),
          });
          return row.id;
        });
        io.out(`Created user ${id} ${mail}${roleRows.length ? ` with role(s) ${roleRows.map((r) => r.name).join(', ')}` : ' (no role: it cannot sign in until it gets one)'}`);
        return 0;
      }
      case 'set-password': {
        const user = await findUser(db, mailOf(values, config));
        const passwordHash = await hashPassword(await passwordOf(values, config, io));
        await db.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.id, user.id));
        await audit(db, null, { action: 'user.set_password', entity: 'user', entityId: user.id, actorId: null, simulatedById: null, after: cli({ mail: user.mail }) });
        io.out(`Password set for ${user.mail} (their sessions ended)`);
        return 0;
      }
      case 'add-role':
      case 'remove-role': {
        const user = await findUser(db, mailOf(values, config));
        const refs = values.role ?? [];
        if (refs.length === 0) throw new CliError(`--role is required\n\n${USER_CLI_USAGE}`, 2);
        for (const ref of refs) {
          const role = await findRoleByRef(db, ref);
          if (command === 'add-role') await db.insert(userRoles).values({ userId: user.id, roleId: role.id }).onConflictDoNothing();
          else await db.delete(userRoles).where(and(eq(userRoles.userId, user.id), eq(userRoles.roleId, role.id)));
          await audit(db, null, {
            action: command === 'add-role' ? 'user.role_add' : 'user.role_remove', entity: 'user', entityId: user.id,
            actorId: null, simulatedById: null, after: cli({ mail: user.mail, role: role.name }),
          });
          io.out(`${command === 'add-role' ? 'Gave' : 'Took'} role ${role.name} ${command === 'add-role' ? 'to' : 'from'} ${user.mail}`);
        }
        return 0;
      }
      case 'sessions': {
        const user = await findUser(db, mailOf(values, config));
        const open = await listOpenSessions(db, user.id);
        for (const o of open) {
          const what = o.simulated_role ? `simulating role ${o.simulated_role.name}` : o.simulated_by ? `simulated by ${o.simulated_by.mail}` : 'sign-in';
          io.out(`${o.id}  since ${o.created_at}  until ${o.expires_at}  ${o.ip ?? '-'}  ${what}${o.remember ? '  (remembered)' : ''}`);
        }
        io.out(`${open.length} open session(s) for ${user.mail}`);
        return 0;
      }
      case 'end-sessions': {
        const user = await findUser(db, mailOf(values, config));
        const ended = await endUserSessions(db, user.id, null);
        if (ended.length > 0) {
          await audit(db, null, { action: 'user.sessions_end', entity: 'user', entityId: user.id, actorId: null, simulatedById: null, after: cli({ mail: user.mail, sessions: ended.length }) });
        }
        io.out(`Ended ${ended.length} session(s) of ${user.mail}`);
        return 0;
      }
      case 'disable':
      case 'enable': {
        const user = await findUser(db, mailOf(values, config));
        const active = command === 'enable';
        await db.update(users).set({ active, updatedAt: sql`now()` }).where(eq(users.id, user.id));
        await audit(db, null, {
          action: `user.${command}`, entity: 'user', entityId: user.id, actorId: null, simulatedById: null,
          before: { active: user.active }, after: cli({ mail: user.mail, active }),
        });
        io.out(`${active ? 'Enabled' : 'Disabled'} ${user.mail}${active ? '' : ' (their sessions ended)'}`);
        return 0;
      }
      default:
        io.err(`Unknown command "${command}"\n\n${USER_CLI_USAGE}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof CliError) {
      io.err(err.message);
      return err.exitCode;
    }
    throw err;
  }
}

/** Terminal I/O: stdin when piped, else a prompt without echo. */
export function terminalIo(): CliIo {
  let piped: Promise<string[]> | null = null;
  const readPiped = () =>
    (piped ??= new Promise<string[]>((resolve, reject) => {
      let data = '';
      process.stdin.setEncoding('utf8');
      process.stdin.on('data', (chunk) => (data += chunk));
      process.stdin.on('end', () => resolve(data.split(/\r?\n/)));
      process.stdin.on('error', reject);
    }));
  return {
    interactive: process.stdin.isTTY === true,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    async readPassword(prompt) {
      if (!process.stdin.isTTY) {
        const lines = await readPiped();
        return lines.shift() ?? '';
      }
      return new Promise<string>((resolve) => {
        const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
        process.stdout.write(prompt);
        // Mute the echo of typed characters (readline has no public option for it).
        (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined;
        rl.question('', (answer) => {
          rl.close();
          process.stdout.write('\n');
          resolve(answer);
        });
      });
    },
  };
}
