/** A button that is a real link (<a href>): client-side navigation, new tab on modified clicks. */
import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';

export function ButtonLink({ to, ...props }: Omit<ButtonProps, 'href'> & { to: string }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLElement>) => {
    props.onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <Button {...props} href={to} onClick={onClick} />;
}
