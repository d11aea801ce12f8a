/** The profile menu (spec section 2): who is signed in, Signature (needs /v1/signatures) and Logout. */
import { DownOutlined, LogoutOutlined, SignatureOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Dropdown, theme as antdTheme, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { api, signOut } from '../lib/api.ts';
import { usePermission } from '../lib/permission.tsx';
import { useSession, type SessionUser } from '../lib/session-store.ts';

export const SIGNATURE_RESOURCE = '/v1/signatures';
export const SIGNATURE_PATH = '/utils/signature_manager';

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

export function UserAvatar({ user, size = 28 }: { user: SessionUser; size?: number }) {
  const { token } = antdTheme.useToken();
  return (
    <Avatar
      size={size}
      src={user.picture ? api.url(user.picture) : undefined}
      alt=""
      aria-hidden
      style={{ background: token.colorPrimary, flex: 'none' }}
    >
      {initialsOf(user.name || user.mail)}
    </Avatar>
  );
}

export function ProfileMenu({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const { lang } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSession((s) => s.user);
  const canSign = usePermission(SIGNATURE_RESOURCE);
  if (!user) return null;

  const logout = () => {
    signOut();
    queryClient.clear();
    navigate(`/${lang}/login`, { replace: true });
  };

  const items: MenuProps['items'] = [
    {
      key: 'who',
      disabled: true,
      className: 'bo-profile__who',
      label: (
        <div className="bo-profile__who-inner">
          <div className="bo-profile__name" style={{ color: token.colorText }}>
            {user.name}
          </div>
          <div className="bo-profile__mail" style={{ color: token.colorTextSecondary }}>
            {user.mail}
          </div>
          {user.roles.length > 0 ? (
            <div className="bo-profile__roles" style={{ color: token.colorTextSecondary }}>
              {t('shell.profile.roles')}: {user.roles.map((r) => r.name).join(', ')}
            </div>
          ) : null}
        </div>
      ),
    },
    { type: 'divider' },
    ...(canSign
      ? [
          {
            key: 'signature',
            icon: <SignatureOutlined />,
            label: (
              <Link to={`/${lang}${SIGNATURE_PATH}`} data-testid="profile-signature">
                {t('shell.profile.signature')}
              </Link>
            ),
          },
        ]
      : []),
    { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="profile-logout">{t('shell.profile.logout')}</span>, onClick: logout },
  ];

  return (
    <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
      <Button type="text" className="bo-profile__trigger" aria-label={compact ? t('shell.profile') : undefined} data-testid="profile-open">
        <UserAvatar user={user} />
        {compact ? null : (
          <>
            <span className="bo-profile__trigger-name">{user.name}</span>
            <DownOutlined className="bo-profile__caret" aria-hidden />
          </>
        )}
      </Button>
    </Dropdown>
  );
}
