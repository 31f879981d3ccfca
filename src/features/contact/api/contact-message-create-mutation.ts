/**
 * Stores a /contact message. Visitors may insert but not read messages (only admins read them), so the
 * insert asks for no row back.
 */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { ContactMessageValues } from '../contact-message-rules'

export async function createContactMessage(values: ContactMessageValues) {
  const { error } = await supabase.from('contact_messages').insert({
    name: values.name.trim(),
    email: values.email.trim(),
    subject: values.subject.trim(),
    message: values.message.trim(),
  })
  if (error) throw error
}

export const useContactMessageCreateMutation = () => useMutation({ mutationFn: createContactMessage })
