/** A phone number when the identifier looks like one (digits, spaces, +, -), otherwise an e-mail. */
export function loginBody(identifier: string, password: string) {
  const id = identifier.trim();
  if (!id) return { email: undefined, password };
  return /^\+?[\d\s-]+$/.test(id) ? { phone: id.replace(/[\s-]/g, ''), password } : { email: id, password };
}
