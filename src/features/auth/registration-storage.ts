/**
 * What the visitor typed at registration, kept in the browser under the SPEC §3 keys until their first
 * sign-in: the intended user type and the names. The first sign-in uses them to complete a missing profile.
 */
import { readLocal, removeLocal, storageKeys, writeLocal } from '@/lib/storage-keys'
import { isUserType, type UserType } from '@/lib/session'

export type RegistrationDetails = { userType: Exclude<UserType, 'admin'>; firstName: string; lastName: string }

export const fullNameOf = (firstName: string, lastName: string) =>
  [firstName.trim(), lastName.trim()].filter(Boolean).join(' ')

export function rememberRegistration({ userType, firstName, lastName }: RegistrationDetails) {
  writeLocal(storageKeys.intendedUserType, userType)
  writeLocal(storageKeys.userFullName, fullNameOf(firstName, lastName))
  writeLocal(storageKeys.userFirstName, firstName.trim())
  writeLocal(storageKeys.userLastName, lastName.trim())
}

export function readRegistration(): {
  userType: Exclude<UserType, 'admin'> | null
  fullName: string | null
  firstName: string | null
  lastName: string | null
} {
  const type = readLocal(storageKeys.intendedUserType)
  return {
    userType: isUserType(type) && type !== 'admin' ? type : null,
    fullName: readLocal(storageKeys.userFullName),
    firstName: readLocal(storageKeys.userFirstName),
    lastName: readLocal(storageKeys.userLastName),
  }
}

export function forgetRegistration() {
  for (const key of [
    storageKeys.intendedUserType,
    storageKeys.userFullName,
    storageKeys.userFirstName,
    storageKeys.userLastName,
  ]) {
    removeLocal(key)
  }
}
