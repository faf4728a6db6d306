import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { signOut } from '../auth/sign-out';

/** /logout (the sidebar's last link): clears the session and the auth state, then goes to /. */
export function Component() {
  const navigate = useNavigate();
  useEffect(() => {
    signOut();
    navigate('/', { replace: true });
  }, [navigate]);
  return null;
}
